// What the recorder writes about a program's image and names, read back the way users read
// it: PROCEXEC's addresses as FreeBSD's kernel logs them, a fixed-address program with its
// hot code far into its text named right in every generation, names that follow exec, and
// system-wide recordings that name their processes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <sstream>

#include "log_sink.h"
#include "pmcprofile/objects.h"
#include "record_test_support.h"

using pmclog::Field;
using pmclog::Kind;
using pmclog::RecordValue;
using namespace rectest;

namespace {

// Samples by leaf function, from the report's folded output ("a;b;leaf COUNT" lines).
std::map<std::string, uint64_t> leaves(const std::string& log) {
  const auto r = run({kReport, "--format", "folded", log});
  EXPECT_EQ(r.status, 0) << r.err;
  std::map<std::string, uint64_t> m;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const size_t sp = line.rfind(' ');
    if (sp == std::string::npos) continue;
    const std::string stack = line.substr(0, sp);
    m[stack.substr(stack.rfind(';') + 1)] += std::strtoull(line.c_str() + sp + 1, nullptr, 10);
  }
  return m;
}

// Self samples by the one key of `--by KEY` rows ("SELF SELF% TOTAL TOTAL% KEY").
std::map<std::string, uint64_t> self_by(const std::string& key, const std::string& log,
                                        const std::vector<std::string>& filter = {}) {
  std::vector<std::string> argv{kReport, "--by", key, log};
  argv.insert(argv.end(), filter.begin(), filter.end());
  const auto r = run(argv);
  EXPECT_EQ(r.status, 0) << r.err;
  std::map<std::string, uint64_t> m;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    uint64_t self = 0, tot = 0;
    std::string pct, tpct, name;
    if (f >> self >> pct >> tot >> tpct >> name) m[name] += self;
  }
  return m;
}

uint64_t total(const std::map<std::string, uint64_t>& m) {
  uint64_t n = 0;
  for (const auto& [k, v] : m) n += v;
  return n;
}

std::string dump(const std::map<std::string, uint64_t>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += k + " " + std::to_string(v) + "\n";
  return s;
}

// The workload's first PROCEXEC (one per pmc: any of them).
const RecordValue* procexec_of(const Log& log, const std::string& path) {
  for (auto* r : log.of(Kind::procexec))
    if (r->text == path) return r;
  return nullptr;
}

// The run-time linker's entry point in its own addresses.
uint64_t linker_entry(const std::string& program) {
  const auto image = pmcprofile::read_elf_layout(program);
  if (image.interp.empty()) return 0;
  return pmcprofile::read_elf_layout(real_path(image.interp)).entry;
}

// What FreeBSD's kernel puts in PROCEXEC, from what the program itself saw: M10 the linker's
// load base (AT_BASE) and the PIE bias (0 for a fixed-address program); older generations
// the address the program starts at, the linker's entry point.
void expect_procexec_addresses(const Log& log, const std::string& program, const Ran& r,
                               uint64_t bias) {
  uint64_t at_base = 0;
  ASSERT_TRUE(output_value(r.out, "at_base", at_base)) << r.out;
  ASSERT_NE(at_base, 0u) << "a dynamically linked workload";
  const RecordValue* x = procexec_of(log, program);
  ASSERT_NE(x, nullptr) << "PROCEXEC of " << program;
  if (log.abi.generation == pmclog::Generation::M10) {
    EXPECT_EQ((*x)[Field::entryaddr], at_base) << std::hex << "AT_BASE";
    EXPECT_EQ((*x)[Field::dynaddr], bias) << std::hex << "the PIE bias";
  } else {
    const uint64_t entry = linker_entry(program);
    ASSERT_NE(entry, 0u);
    EXPECT_EQ((*x)[Field::entryaddr], at_base + entry) << std::hex << "the linker's entry";
  }
}

class FixedAddress : public ::testing::TestWithParam<const char*> {};

}  // namespace

// A fixed-address program whose hot function lies more than 8 MiB into its text: every
// generation names it (an image base taken for a bias moved such frames into other code).
TEST_P(FixedAddress, FarHotFunctionIsNamedInEveryGeneration) {
  ASSERT_EQ(pmcprofile::read_elf_layout(kFarHot).type, 2) << "ET_EXEC";
  const uint64_t hot = symbol_address(kFarHot, "hot_function");
  const uint64_t pad = symbol_address(kFarHot, "far_padding");
  ASSERT_GT(hot, pmcprofile::read_elf_layout(kFarHot).exec_lo + (8u << 20)) << std::hex << hot;
  ASSERT_GT(hot, pad);
  ScratchDir dir;
  const std::string out = dir.file("far.pmclog");
  const auto r = run({kRecord, "--generation", GetParam(), "-o", out, "--", kFarHot, "0.3"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Log log = read_log(out);
  ASSERT_TRUE(log.ok) << log.error;
  expect_procexec_addresses(log, kFarHot, r, 0);
  const auto m = leaves(out);
  ASSERT_GE(total(m), 50u) << dump(m);
  EXPECT_GE(m.count("hot_function") ? m.at("hot_function") * 10 : 0, total(m) * 6) << dump(m);
  EXPECT_EQ(m.count("far_padding"), 0u) << dump(m);
}

INSTANTIATE_TEST_SUITE_P(Generations, FixedAddress, ::testing::Values("L2", "L3", "M9", "M10"));

// M10's second address is the program's load bias (a PIE's, with the toolchain's default),
// as its own address of its hot function says; the first the linker's base.
TEST(RecordExec, LoadBiasAndLinkerBaseAsFreeBsdLogsThem) {
  ScratchDir dir;
  const std::string out = dir.file("pie.pmclog");
  const auto r = run({kRecord, "--generation", "M10", "-o", out, "--", kCpuHot, "0.1"});
  ASSERT_EQ(r.status, 0) << r.err;
  uint64_t hot = 0;
  ASSERT_TRUE(output_value(r.out, "hot", hot)) << r.out;
  const Log log = read_log(out);
  ASSERT_TRUE(log.ok) << log.error;
  expect_procexec_addresses(log, kCpuHot, r, hot - symbol_address(kCpuHot, "hot_function"));
}

// A log that gives a fixed-address program's image base as its load bias (as this recorder
// once wrote M10 logs): the report places the program at its own addresses all the same.
TEST(RecordExec, ReportIgnoresABiasGivenForAFixedAddressProgram) {
  const uint64_t hot = symbol_address(kFarHot, "hot_function");
  ASSERT_NE(hot, 0u);
  ScratchDir dir;
  const std::string out = dir.file("biased.pmclog");
  const auto abi = pmclog::Abi::make(pmclog::Generation::M10, 8, pmclog::ByteOrder::little);
  record::LogSink sink(abi, out);
  std::string err;
  ASSERT_TRUE(sink.open(err)) << err;
  auto rec = [](Kind k) {
    RecordValue r;
    r.kind = k;
    return r;
  };
  RecordValue init = rec(Kind::initialize);
  init[Field::version] = pmclog::typical_pmc_version(abi.generation);
  init[Field::arch] = 0x400;
  init[Field::tsc_freq] = 1000000000;
  init.text = "GenuineIntel-6-55";
  sink.emit(init, 1000);
  RecordValue alloc = rec(Kind::pmcallocatedyn);
  pmclog::PmcIdParts parts{};
  parts.any_cpu = true;
  parts.mode = 2;      // TS
  parts.klass = 0x0F;  // SOFT
  const uint32_t pmcid = pmclog::make_pmcid(parts, abi.generation);
  alloc[Field::pmcid] = pmcid;
  alloc[Field::event] = 0x20000;
  alloc[Field::flags] = 0x82;
  alloc.text = "cpu-clock";
  sink.emit(alloc, 1000);
  RecordValue exec = rec(Kind::procexec);
  exec[Field::pid] = 4242;
  exec[Field::pmcid] = pmcid;
  exec[Field::entryaddr] = 0x400000;
  exec[Field::dynaddr] = 0x400000;  // the image base, not a bias
  exec.text = kFarHot;
  sink.emit(exec, 2000);
  // The [vdso] mapping this recorder logs for every process marks the log as Linux's, so the
  // report may read this machine's program file.
  RecordValue vdso = rec(Kind::map_in);
  vdso[Field::pid] = 4242;
  vdso[Field::start] = 0x7fff00000000;
  vdso.text = "[vdso]";
  sink.emit(vdso, 2000);
  for (int i = 0; i < 10; ++i) {
    RecordValue cc = rec(Kind::callchain);
    cc[Field::pid] = 4242;
    cc[Field::tid] = 4242;
    cc[Field::pmcid] = pmcid;
    cc[Field::cpuflags] = 1;  // user mode, CPU 0
    cc.pcs = {hot + 4};
    sink.emit(cc, 3000 + static_cast<uint64_t>(i));
  }
  RecordValue close = rec(Kind::closelog);
  sink.emit(close, 4000);
  ASSERT_TRUE(sink.commit(err)) << err;
  const auto m = leaves(out);
  EXPECT_EQ(m.count("hot_function") ? m.at("hot_function") : 0, 10u) << dump(m);
}

// The names of a process and its thread follow exec, as perf's do: samples after the exec
// are the new program's, in the thread view too.
TEST(RecordExec, ThreadNameFollowsExec) {
  ScratchDir dir;
  const std::string copy = dir.file("renamed_hot");
  ASSERT_EQ(run({"/bin/cp", kCpuHot, copy}).status, 0);
  const std::string out = dir.file("exec.pmclog");
  const auto r = run({kRecord, "--generation", "M10", "-o", out, "--", kExecHot, copy, "0.3"});
  ASSERT_EQ(r.status, 0) << r.err;
  uint64_t pid = 0;
  ASSERT_TRUE(output_value(r.out, "exec", pid)) << r.out;
  const Log log = read_log(out);
  ASSERT_TRUE(log.ok) << log.error;
  std::string thread_name;  // the last THR_CREATE of the main thread
  for (auto* t : log.of(Kind::thr_create))
    if ((*t)[Field::tid] == pid) thread_name = t->text;
  EXPECT_EQ(thread_name, "renamed_hot");
  std::string want = "renamed_hot:";  // appended: g++-12 warns falsely on "lit" + string
  want += std::to_string(pid);
  const auto threads = self_by("thread", out);
  EXPECT_GE(threads.count(want) ? threads.at(want) * 10 : 0, total(threads) * 8)
      << dump(threads);
}

// -a names every process: one started while the recording runs has its command name in
// the report and in --stats.
TEST(RecordExec, SystemWideRecordingNamesItsProcesses) {
  if (geteuid() != 0) GTEST_SKIP() << "-a needs root here";
  ScratchDir dir;
  const std::string copy = dir.file("sysw_hot");
  ASSERT_EQ(run({"/bin/cp", kCpuHot, copy}).status, 0);
  const std::string out = dir.file("all.pmclog");
  const auto r = run({kRecord, "-a", "-o", out, "--", copy, "0.4"});
  ASSERT_EQ(r.status, 0) << r.err;
  // Every process is named (--stats says "[unknown]" for a pid without a name) ...
  const auto stats = run({kDump, "--stats", "--top", "all", out});
  ASSERT_EQ(stats.status, 0) << stats.err;
  EXPECT_NE(stats.out.find("sysw_hot"), std::string::npos) << stats.out;
  EXPECT_EQ(stats.out.find("[unknown]"), std::string::npos) << stats.out;
  // ... and the report gives the command its samples (only its own symbolized: fast).
  const auto comms = self_by("comm", out, {"--comm", "sysw_hot"});
  EXPECT_GE(comms.count("sysw_hot") ? comms.at("sysw_hot") : 0, 100u)
      << "0.4 s of CPU at 1000 Hz\n" << dump(comms);
}

// Two pmcs log two PROCEXECs of one exec: --stats counts the exec once.
TEST(RecordExec, StatsCountAnExecOncePerProcess) {
  ScratchDir dir;
  const std::string out = dir.file("two.pmclog");
  const auto r = run({kRecord, "-e", "cpu-clock,task-clock", "-o", out, "--", kExecHot, kCpuHot,
                      "0.1"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Log log = read_log(out);
  ASSERT_TRUE(log.ok) << log.error;
  ASSERT_EQ(log.count(Kind::procexec), 4u) << "two execs, one PROCEXEC per pmc";
  const auto stats = run({kDump, "--stats", out});
  ASSERT_EQ(stats.status, 0) << stats.err;
  EXPECT_NE(stats.out.find("execs: 2 (2 paths)"), std::string::npos) << stats.out;
}
