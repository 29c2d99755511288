// --format=pmcstat against FreeBSD's own pmcstat output (fixtures/golden/*.pmcstat.txt) and
// the example lines of format.md §13, byte for byte.
#include <gtest/gtest.h>

#include "build_log.h"
#include "run_tool.h"

using namespace dumptest;
using pmclog::Field;
using pmclog::Kind;

namespace {

void expect_golden(const std::string& name) {
  const Ran r = run_dump({"--format=pmcstat", fixture("golden/" + name + ".pmclog")});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, slurp(fixture("golden/" + name + ".pmcstat.txt")));
}

}  // namespace

TEST(Pmcstat, GoldenSeedL3MatchesFreeBsdByteForByte) { expect_golden("seed-lp64-le"); }
TEST(Pmcstat, GoldenModernM9MatchesFreeBsdByteForByte) { expect_golden("modern-lp64-le"); }

// The example lines of format.md §13 for the legacy printer (L3 LP64).
TEST(Pmcstat, Format9LegacyExamples) {
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x91; }
  { auto& v = b.add(Kind::callchain); v[Field::pid] = 1234; v[Field::pmcid] = 0x2000701;
    v[Field::cpuflags] = 2u << 16; v.pcs = {0xffffffff80b3c9f1, 0xffffffff80b3c000, 0x1}; }
  { auto& v = b.add(Kind::map_in); v[Field::pid] = 0xFFFFFFFF; v[Field::start] = 0xffffffff80200000;
    v.text = "/boot/kernel/kernel"; }
  { auto& v = b.add(Kind::map_out); v[Field::pid] = 1234; v[Field::start] = 0x800a00000; v[Field::end] = 0x800c00000; }
  { auto& v = b.add(Kind::pmcallocatedyn); v[Field::pmcid] = 0xff020f00; v[Field::event] = 0x20001;
    v.text = "SOFT-CLOCK.HARD"; }
  { auto& v = b.add(Kind::pmcattach); v[Field::pmcid] = 0xff020700; v[Field::pid] = 1234; v.text = "/usr/bin/yes"; }
  { auto& v = b.add(Kind::pmcdetach); v[Field::pmcid] = 0xff020700; v[Field::pid] = 1234; }
  { auto& v = b.add(Kind::proccsw); v[Field::pmcid] = 0xff020700; v[Field::pid] = 1234; v[Field::value] = 51234; }
  { auto& v = b.add(Kind::procexec); v[Field::pmcid] = 0xff020700; v[Field::pid] = 1234;
    v[Field::entryaddr] = 0x800600140; v.text = "/usr/bin/yes"; }
  { auto& v = b.add(Kind::procexit); v[Field::pmcid] = 0xff020700; v[Field::pid] = 1234; v[Field::value] = 98765432; }
  { auto& v = b.add(Kind::procfork); v[Field::oldpid] = 1234; v[Field::newpid] = 1240; }
  { auto& v = b.add(Kind::userdata); v[Field::userdata] = 0xcafe; }
  { auto& v = b.add(Kind::sysexit); v[Field::pid] = 1234; }
  b.add(Kind::dropnotify);
  b.add(Kind::closelog);
  const std::string path = temp_dir() + "/format9-legacy.pmclog";
  write_file(path, b.finish());
  const Ran r = run_dump({"--format=pmcstat", path});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "initlog   0x3010000 \"INTEL_HASWELL\"\n"
            "callchain 1234 0x2000701 2 3 s\n"
            "...       0xffffffff80b3c9f1\n"
            "...       0xffffffff80b3c000\n"
            "...       0x1\n"
            "map-in    -1 0xffffffff80200000 \"/boot/kernel/kernel\"\n"
            "map-out   1234 0x800a00000 0x800c00000\n"
            "allocatedyn 0xff020f00 \"SOFT-CLOCK.HARD\" 0x0\n"
            "attach    0xff020700 1234 \"/usr/bin/yes\"\n"
            "detach    0xff020700 1234\n"
            "cswval    0xff020700 1234 51234\n"
            "exec      0xff020700 1234 0x800600140 \"/usr/bin/yes\"\n"
            "exitval   0xff020700 1234 98765432\n"
            "fork      1234 1240\n"
            "userdata  0xcafe\n"
            "exit      1234\n"
            "drop      \n"
            "closelog  \n");
}

// FreeBSD main (M10): two-address exec and the create/thr-* lines; CLOSELOG ends the output.
TEST(Pmcstat, Format9ModernMainExamples) {
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::M10, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x0A000000; v[Field::arch] = 0x400; }
  { auto& v = b.add(Kind::procexec); v[Field::pmcid] = 0xfff20700; v[Field::pid] = 1234;
    v[Field::entryaddr] = 0x800236000; v[Field::dynaddr] = 0x1021000; v.text = "/usr/bin/yes"; }
  { auto& v = b.add(Kind::proc_create); v[Field::pid] = 1234; v[Field::flags] = 0x10004000; v.text = "yes"; }
  { auto& v = b.add(Kind::thr_create); v[Field::tid] = 100321; v[Field::pid] = 1234;
    v[Field::flags] = 0x10004000; v.text = "yes"; }
  { auto& v = b.add(Kind::thr_exit); v[Field::tid] = 100321; }
  b.add(Kind::closelog);
  { auto& v = b.add(Kind::userdata); v[Field::userdata] = 1; }  // after CLOSELOG: libpmc never sees it
  const std::string path = temp_dir() + "/format9-main.pmclog";
  write_file(path, b.finish());
  const Ran r = run_dump({"--format=pmcstat", path});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "initlog   0xa000000 \"GENERIC\"\n"
            "exec      0xfff20700 1234 0x800236000 0x1021000 \"/usr/bin/yes\"\n"
            "create    1234 10004000 \"yes\"\n"
            "thr-create 100321 1234 10004000 \"yes\"\n"
            "thr-exit  100321\n");
}

// L1 (i386): "%-8s " keywords, the mapping and sample lines, "unknown %d" has no newline.
TEST(Pmcstat, Format9L1Examples) {
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L1, 4, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x01020003; v[Field::arch] = 3; }
  { auto& v = b.add(Kind::mappingchange); v[Field::maptype] = 1; v[Field::pid] = 1234;
    v[Field::start] = 0x8048000; v[Field::end] = 0x80a0000; v.text = "/bin/sh"; }
  { auto& v = b.add(Kind::pcsample); v[Field::pmcid] = 0xff020700; v[Field::pid] = 1234;
    v[Field::pc] = 0x400b2c; v[Field::usermode] = 1; }
  b.add(Kind::closelog);
  const std::string path = temp_dir() + "/format9-l1.pmclog";
  write_file(path, b.finish());
  const Ran r = run_dump({"--format=pmcstat", "--generation=L1", "--address-width=4", path});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "initlog  0x1020003 \"INTEL_P6\"\n"
            "mapping  insert 1234 0x8048000 0x80a0000 \"/bin/sh\"\n"
            "sample   0xff020700 1234 0x400b2c u\n"
            "closelog \n");
}

// A parse error: everything before it, then pmcstat's own error line on stderr.
TEST(Pmcstat, ParseErrorLineOnStderr) {
  std::string bytes = slurp(fixture("golden/seed-lp64-le.pmclog"));
  bytes.resize(5400);  // CLOSELOG at 5396 loses 8 of its 12 bytes
  const std::string path = temp_dir() + "/seed-cut.pmclog";
  write_file(path, bytes);
  const Ran r = run_dump({"--format=pmcstat", path});
  EXPECT_EQ(r.status, 1);
  const std::string golden = slurp(fixture("golden/seed-lp64-le.pmcstat.txt"));
  EXPECT_EQ(r.out, golden.substr(0, golden.size() - std::string("closelog  \n").size()));
  // 30 good records, so the failing one is record 31; the last good one ends at 5396.
  const auto err = lines(r.err);
  ASSERT_GE(err.size(), 2u);
  EXPECT_EQ(err[0], "pmcstat: ERROR: event parsing failed (record 31, offset 0x1514).");
  EXPECT_NE(err[1].find("offset 5396"), std::string::npos) << err[1];
  EXPECT_NE(err[1].find("truncated"), std::string::npos) << err[1];
}

// Event codes: a soft event takes the name the log gave it in PMCALLOCATEDYN; a code missing
// from the dump's table is printed as EVENT_0x<code>, with one note per code on stderr
// (tools/pmclog-dump/README.md, "pmcstat compatibility").
TEST(Pmcstat, EventNamesFromTheLogAndPlaceholders) {
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x8B; }
  { auto& v = b.add(Kind::pmcallocatedyn); v[Field::pmcid] = 0xff000d01; v[Field::event] = 0x20007; v.text = "CLOCK.STAT"; }
  { auto& v = b.add(Kind::pmcallocate); v[Field::pmcid] = 0xff000d02; v[Field::event] = 0x20007; }
  { auto& v = b.add(Kind::pmcallocate); v[Field::pmcid] = 0xff000703; v[Field::event] = 0x10fff; }
  { auto& v = b.add(Kind::pmcallocate); v[Field::pmcid] = 0xff000704; v[Field::event] = 0x10fff; }
  const std::string path = temp_dir() + "/event-names.pmclog";
  write_file(path, b.finish());
  const Ran r = run_dump({"--format=pmcstat", path});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "initlog   0x3010000 \"INTEL_COREI7\"\n"
            "allocatedyn 0xff000d01 \"CLOCK.STAT\" 0x0\n"
            "allocate  0xff000d02 \"CLOCK.STAT\" 0x0\n"
            "allocate  0xff000703 \"EVENT_0x10fff\" 0x0\n"
            "allocate  0xff000704 \"EVENT_0x10fff\" 0x0\n");
  const auto err = lines(r.err);
  ASSERT_EQ(err.size(), 1u) << r.err;
  EXPECT_NE(err[0].find("event code 0x10fff (cputype 0x8b) is not in pmclog-dump's event table"),
            std::string::npos)
      << err[0];
}
