// A log from another system is never symbolized with this machine's files: an object file
// names a frame only when it can be the object the log's system mapped (its OS brand,
// machine, byte order and class, and the kernel's build id when the container names one).
// An unresolved frame has one name whatever the options.
#include <gtest/gtest.h>
#include <unistd.h>

#include <regex>
#include <sstream>

#include "pmcprofile/objects.h"
#include "report_support.h"

namespace {

using reptest::hex;

constexpr uint64_t kLib = 0x800400000;  // where the logs map shared objects (MAP_IN start)
constexpr uint64_t kKernel = 0xffffffff80200000;
constexpr uint64_t kPie = 0x1000000;  // M10 PROCEXEC dynaddr
const std::string kEvent =
    R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu-clock"})";
const std::string kLd = "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";

// A modern INITIALIZE: x86-64, or i386 with `width` 4.
std::string initialize(uint32_t cputype, int width = 8) {
  return R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":)" +
         std::to_string(width) + R"(,"time_width":)" + std::to_string(width) +
         R"(,"version":167772160,"arch":)" + std::to_string(cputype) +
         R"(,"tsc_freq":2000000000,"cpuid":"GenuineIntel-6-55"})";
}
constexpr uint32_t kSkylake = 0x98, kGeneric = 0x400;

std::string container(const std::string& arch, const std::string& release, const std::string& build_id) {
  return R"({"type":"pmcl-header","byte_order":"little","version":0,"arch":")" + arch + R"("})" "\n"
         R"({"type":"pmcl-info","info_type":"sysinfo","reserved8":0,"reserved32":0,"cpu_model":"x","os_release":")" +
         release + R"(","kernel_build_id":")" + build_id + R"("})";
}

std::string map_in(uint32_t pid, uint64_t start, const std::string& path) {
  return R"({"type":"map-in","pid":)" + std::to_string(pid) + R"(,"start_hex":")" + hex(start) +
         R"(","path":")" + path + "\"}";
}

std::string sample(const std::vector<uint64_t>& pcs, bool user = true) {
  std::string s = R"({"type":"callchain","pid":42,"tid":100042,"pmcid":4294053632,"cpu":0,"usermode":)" +
                  std::string(user ? "1" : "0") + R"(,"pcs_hex":[)";
  for (size_t i = 0; i < pcs.size(); ++i) s += (i ? ",\"" : "\"") + hex(pcs[i]) + "\"";
  return s + "]}";
}

// The log's address of `symbol` + 1 in `file` mapped by a MAP_IN at `start`.
uint64_t at(const std::string& file, const std::string& symbol, uint64_t start) {
  const uint64_t v = reptest::symbol_address(file, symbol);
  EXPECT_NE(v, 0u) << symbol << " in " << file;
  return start + v - reptest::exec_segment_page(file) + 1;
}

reptest::Ran report(std::vector<std::string> args) {
  args.insert(args.begin(), REPORT_EXE);
  return reptest::run(args);
}

std::vector<std::string> frames_of(const std::string& folded) {
  std::vector<std::string> out;
  for (const auto& [stack, n] : reptest::parse_folded(folded)) {
    std::stringstream in(stack);
    std::string f;
    while (std::getline(in, f, ';')) out.push_back(f);
  }
  return out;
}

struct Foreign : ::testing::Test {
  reptest::ScratchDir dir;
  std::string root;
  void SetUp() override { root = dir.file("root"); }
};

TEST_F(Foreign, FreeBsdLogNamesNoFunctionOfThisMachine) {
  // /bin/sh placed by PROCEXEC, the host's run-time linker and a host library with symbols
  // by MAP_IN, all at their entry or a known function: the host's files are Linux ELF.
  const auto sh = pmcprofile::read_elf_layout("/bin/sh");
  const auto ld = pmcprofile::read_elf_layout(kLd);
  std::vector<std::string> lines = {initialize(kGeneric), kEvent,
                                    map_in(0xFFFFFFFFu, kKernel, "/boot/kernel/kernel"),
                                    R"({"type":"procexec","pid":42,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":")" +
                                        hex(kPie) + R"(","path":"/bin/sh"})",
                                    map_in(42, kLib, FAKE_LIBC), map_in(42, 0x900000000, kLd),
                                    sample({at(FAKE_LIBC, "fbsd_memcpy", kLib), kPie + sh.entry})};
  if (ld.valid) lines.push_back(sample({0x900000000 + ld.entry - ld.exec_lo + 1}));
  lines.push_back(R"({"type":"closelog"})");
  const std::string log = reptest::write_log(dir, "fbsd.pmclog", lines);
  const auto r = report({"--format", "folded", log});
  ASSERT_EQ(r.status, 0) << r.err;
  // Every frame is a label: object+0xOFFSET, [kernel] 0xADDR or a raw address.
  const std::regex label(R"(cpu-clock|[^;]+\+0x[0-9a-f]+|0x[0-9a-f]+|\[kernel\] 0x[0-9a-f]+)");
  for (const auto& f : frames_of(r.out)) EXPECT_TRUE(std::regex_match(f, label)) << f << "\n" << r.out;
  EXPECT_NE(r.out.find("libreport_fake_libc.so+" + hex(at(FAKE_LIBC, "fbsd_memcpy", 0))), std::string::npos)
      << r.out;
  // The summary says why each file was not used.
  EXPECT_NE(r.err.find(std::string(FAKE_LIBC) + ": 1 frames, object missing: ELF not branded FreeBSD "
                                                "(System V, no FreeBSD note), log from FreeBSD (give --sysroot?)"),
            std::string::npos) << r.err;
  if (ld.valid) {
    EXPECT_NE(r.err.find(kLd + ": 1 frames, object missing: Linux ELF, log from FreeBSD (give --sysroot?)"),
              std::string::npos) << r.err;
  }
  if (sh.valid) {
    EXPECT_NE(r.err.find("/bin/sh: 1 frames, object missing: "), std::string::npos) << r.err;
  }
}

TEST_F(Foreign, FreeBsdTaggedObjectIsUsedOnlyForFreeBsdLogs) {
  const auto l = pmcprofile::read_elf_layout(FOREIGN_TAGGED);
  EXPECT_EQ(l.os_note, pmcprofile::ElfOsNote::freebsd);
  EXPECT_EQ(l.osabi, 0) << "branded by its note alone";
  reptest::copy_file(FOREIGN_TAGGED, root + "/lib/libtagged.so.1");
  const uint64_t work = at(FOREIGN_TAGGED, "tagged_work", kLib);
  const std::string body[] = {kEvent, map_in(42, kLib, "/lib/libtagged.so.1"), sample({work}),
                              R"({"type":"closelog"})"};
  // FreeBSD's (a hardware cputype, no mark of pmclog-record): the sysroot's file is used.
  std::vector<std::string> fbsd{initialize(kSkylake)};
  fbsd.insert(fbsd.end(), std::begin(body), std::end(body));
  auto r = report({"--format", "folded", "--sysroot", root, reptest::write_log(dir, "f.pmclog", fbsd)});
  EXPECT_EQ(r.out, "cpu-clock;tagged_work 1\n") << r.err;
  // pmclog-record's (its vDSO mapping): a FreeBSD object cannot be what Linux mapped.
  std::vector<std::string> lnx{initialize(kGeneric), kEvent, map_in(42, 0x7ff000000000, "[vdso]")};
  lnx.insert(lnx.end(), std::begin(body) + 1, std::end(body));
  r = report({"--format", "folded", "--sysroot", root, reptest::write_log(dir, "l.pmclog", lnx)});
  EXPECT_EQ(r.out, "cpu-clock;libtagged.so.1+" + hex(work - kLib) + " 1\n") << r.err;
  EXPECT_NE(r.err.find("/lib/libtagged.so.1: 1 frames, object missing: FreeBSD ELF, log from Linux "
                       "(the sysroot's file is not the log's)"),
            std::string::npos) << r.err;
}

TEST_F(Foreign, KernelBuildIdMustBeTheContainers) {
  const std::string id = reptest::build_id(FOREIGN_TAGGED);
  ASSERT_FALSE(id.empty());
  const std::string kernel = dir.file("kernel");
  reptest::copy_file(FOREIGN_TAGGED, kernel);  // plays the kernel image
  const uint64_t work = at(FOREIGN_TAGGED, "tagged_work", kKernel);
  const auto run_with = [&](const std::string& build_id) {
    const std::string log = reptest::write_log(dir, build_id + ".pmclog", {
        container("amd64", "14.3-RELEASE", build_id), initialize(kSkylake), kEvent,
        map_in(0xFFFFFFFFu, kKernel, "/boot/kernel/kernel"), sample({work}, false),
        R"({"type":"closelog"})"});
    return report({"--format", "folded", "--kernel", kernel, log});
  };
  auto r = run_with(id);
  EXPECT_EQ(r.out, "cpu-clock;tagged_work_[k] 1\n") << r.err;
  const std::string other(id.size(), 'e');
  r = run_with(other);
  EXPECT_EQ(r.out, "cpu-clock;[kernel] " + hex(work) + "_[k] 1\n") << r.err;
  EXPECT_NE(r.err.find("object missing: build id " + id + ", the log's kernel " + other), std::string::npos)
      << r.err;
}

TEST_F(Foreign, MachineAndAddressWidthMustBeTheLogs) {
  reptest::copy_file(FOREIGN_TAGGED, root + "/lib/libtagged.so.1");
  // An arm64 FreeBSD system (its container): an x86-64 object is not its object.
  const uint64_t work = at(FOREIGN_TAGGED, "tagged_work", kLib);
  std::string log = reptest::write_log(dir, "arm.pmclog", {
      container("arm64", "15.0-CURRENT", ""), initialize(kGeneric), kEvent,
      map_in(42, kLib, "/lib/libtagged.so.1"), sample({work}), R"({"type":"closelog"})"});
  auto r = report({"--format", "folded", "--sysroot", root, log});
  EXPECT_EQ(r.out, "cpu-clock;libtagged.so.1+" + hex(work - kLib) + " 1\n") << r.err;
  EXPECT_NE(r.err.find("object missing: ELF for x86-64, log from aarch64"), std::string::npos) << r.err;
  // An i386 log: a 64-bit object is not one of its processes' objects.
  constexpr uint64_t kLib32 = 0x28200000;
  log = reptest::write_log(dir, "i386.pmclog", {
      initialize(kSkylake, 4), kEvent, map_in(42, kLib32, "/lib/libtagged.so.1"),
      sample({at(FOREIGN_TAGGED, "tagged_work", kLib32)}), R"({"type":"closelog"})"});
  r = report({"--format", "folded", "--sysroot", root, log});
  EXPECT_EQ(r.out.find("tagged_work"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("object missing: 64-bit ELF, log of 32-bit addresses"), std::string::npos) << r.err;
}

TEST_F(Foreign, UnresolvedNameIsTheSameWithAndWithoutASysroot) {
  // The sysroot's copy is stripped: inner_spin (local) has no symbol left, so the frame
  // stays unresolved with the file ("no symbols") as without it ("object missing").
  const std::string lib = root + "/lib/libtagged.so.1";
  reptest::copy_file(FOREIGN_TAGGED, lib);
  ASSERT_EQ(reptest::run({"/usr/bin/strip", "--strip-all", lib}).status, 0);
  ASSERT_EQ(reptest::symbol_address(lib, "inner_spin"), 0u);
  const uint64_t spin = at(FOREIGN_TAGGED, "inner_spin", kLib);
  ASSERT_NE(reptest::exec_segment_page(FOREIGN_TAGGED), 0u) << "the two conventions would agree";
  const std::string log = reptest::write_log(dir, "s.pmclog", {
      initialize(kSkylake), kEvent, map_in(42, kLib, "/lib/libtagged.so.1"), sample({spin}),
      R"({"type":"closelog"})"});
  const std::string want = "cpu-clock;libtagged.so.1+" + hex(spin - kLib) + " 1\n";
  auto r = report({"--format", "folded", "--sysroot", root, log});
  EXPECT_EQ(r.out, want) << r.err;
  EXPECT_NE(r.err.find("/lib/libtagged.so.1: 1 frames, no symbols"), std::string::npos) << r.err;
  r = report({"--format", "folded", log});
  EXPECT_EQ(r.out, want) << r.err;
  EXPECT_NE(r.err.find("/lib/libtagged.so.1: 1 frames, object missing (give --sysroot?)"), std::string::npos)
      << r.err;
}

TEST(ForeignRelease, FreeBsdReleasesAreToldFromLinuxOnes) {
  for (const char* r : {"14.3-RELEASE", "14.3-RELEASE-p2", "15.0-CURRENT", "13.4-STABLE", "14.0-BETA3",
                        "14.2-RC1", "FreeBSD 14.3-RELEASE"})
    EXPECT_TRUE(pmcprofile::is_freebsd_release(r)) << r;
  for (const char* r : {"6.1.0-18-amd64", "5.15.0-91-generic", "6.8.0", "14.3", "14-RELEASE", ""})
    EXPECT_FALSE(pmcprofile::is_freebsd_release(r)) << r;
}

TEST_F(Foreign, LinuxLogsStillUseThisMachinesFiles) {
  // pmclog-record's marks: a "[vdso]" mapping, or a container with a Linux release. Linux
  // libraries carry no brand, and this one has none: it is taken.
  const uint64_t memcpy_ = at(FAKE_LIBC, "fbsd_memcpy", kLib);
  for (const auto& first : {std::vector<std::string>{initialize(kGeneric), kEvent,
                                                      map_in(42, 0x7ff000000000, "[vdso]")},
                            std::vector<std::string>{container("amd64", "6.1.0-18-amd64", ""),
                                                     initialize(kGeneric), kEvent}}) {
    auto lines = first;
    lines.insert(lines.end(), {map_in(42, kLib, FAKE_LIBC), sample({memcpy_}), R"({"type":"closelog"})"});
    const auto r = report({"--format", "folded", reptest::write_log(dir, "linux.pmclog", lines)});
    EXPECT_EQ(r.out, "cpu-clock;fbsd_memcpy 1\n") << r.err;
  }
}

}  // namespace
