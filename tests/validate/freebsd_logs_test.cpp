// Logs shaped as FreeBSD writes them in normal operation pass the default rules, even with
// --strict; --pedantic still names what is unusual about them (docs/format.md §3.4, §11).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "config.h"
#include "log_builder.h"
#include "rules.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace validate_test {
namespace {

namespace fs = std::filesystem;
using pmclog::validate::Config;
using S = std::multiset<std::string>;

S ids(const pmclog::validate::FileResult& r) {
  S out;
  for (const auto& d : r.diagnostics) out.emplace(pmclog::validate::info(d.rule).id);
  return out;
}

// A system-mode sampling pmc of `cpu` in layout III (M10) or I (legacy) (format.md §9.3).
uint32_t system_pmcid(Generation g, uint32_t cpu) {
  constexpr uint32_t kClass = 0x0D, kModeSS = 0;
  return g == Generation::M10 ? cpu << 20 | kModeSS << 16 | kClass << 8
                              : cpu << 24 | kModeSS << 16 | kClass << 8;
}

RecordValue value(Kind k) {
  RecordValue v;
  v.kind = k;
  return v;
}

constexpr uint32_t kCpus = 4, kShell = 700, kMake = 701;
constexpr uint64_t kLibc = 0x800400000;

// `pmcstat -S cpu_clk_unhalted.core_p -O` on 15-CURRENT: one pmc per CPU, flags 0x20280
// (CALLCHAIN | EV_PMU | NEEDS_LOGFILE) with a pmu-events index as event, per-CPU buffers
// flushed out of order, stale spare words, and no CLOSELOG at the end.
LogBuilder freebsd_m10_system_wide() {
  LogBuilder b(Abi::make(Generation::M10, 8, ByteOrder::little));
  RecordValue init = value(Kind::initialize);
  init[Field::version] = 0x0A000000;
  init[Field::arch] = 0x92;
  init[Field::tsc_freq] = 2400000000u;
  init[Field::init_ts_sec] = 1750000000u;
  init.text = "GenuineIntel-6-4D-8";
  init.tsc = 1000;
  b.add(init);
  for (uint32_t cpu = 0; cpu < kCpus; ++cpu) {
    RecordValue a = value(Kind::pmcallocate);
    a[Field::pmcid] = system_pmcid(Generation::M10, cpu);
    a[Field::event] = 0x6a;
    a[Field::flags] = 0x20280;
    a[Field::rate] = 65536;
    a.tsc = 2000 + cpu;
    b.add(a);
  }
  RecordValue kernel = value(Kind::map_in);
  kernel[Field::pid] = 0xFFFFFFFFu;
  kernel[Field::start] = 0xffffffff80200000u;
  kernel.text = "/boot/kernel/kernel";
  kernel.tsc = 3000;
  b.add(kernel);
  RecordValue proc = value(Kind::proc_create);
  proc[Field::pid] = kShell;
  proc.text = "sh";
  proc.tsc = 3100;
  b.add(proc);
  RecordValue libc = value(Kind::map_in);
  libc[Field::pid] = kShell;
  libc[Field::start] = kLibc;
  libc.text = "/lib/libc.so.7";
  libc.tsc = 3200;
  b.add(libc);
  auto sample = [&](uint32_t pid, uint32_t cpu, uint64_t tsc) {
    RecordValue s = value(Kind::callchain);
    s[Field::pid] = pid;
    s[Field::tid] = pid + 100000;
    s[Field::pmcid] = system_pmcid(Generation::M10, cpu);
    s[Field::cpuflags] = cpu << 16 | 1u;
    s.pcs = {kLibc + 0x1234, 0x401000};
    s.tsc = tsc;
    return b.add(s);
  };
  // CPU 1's buffer reaches the file before CPU 0's, which holds earlier samples.
  for (uint64_t i = 0; i < 3; ++i) sample(kShell, 1, 9000 + i);
  for (uint64_t i = 0; i < 3; ++i) sample(kShell, 0, 5000 + i);
  // A partial munmap: its start is inside the mapping, not the start that MAP_IN named.
  RecordValue unmap = value(Kind::map_out);
  unmap[Field::pid] = kShell;
  unmap[Field::start] = kLibc + 0x10000;
  unmap[Field::end] = kLibc + 0x20000;
  unmap.tsc = 9100;
  b.add(unmap);
  // The shell exits on CPU 2; CPU 3's buffer, flushed later, still holds its last samples.
  RecordValue exit = value(Kind::sysexit);
  exit[Field::pid] = kShell;
  exit.tsc = 9200;
  b.add(exit);
  sample(kShell, 3, 9150);
  sample(kMake, 3, 9300);
  // Stale bytes in the never-written spare word (format.md §5).
  for (size_t rec = 1; rec < b.count(); rec += 3) b.set_word(rec, 4, 0xA5A5A5A5u);
  return b;
}

// An L3 log of a 12-CURRENT kernel of spring 2018, which already kept per-CPU buffers: the
// owner reconfigured the log (CLOSELOG), and the other CPU's buffer, flushed after it, holds
// records from before it.
LogBuilder freebsd_late_l3() {
  LogBuilder b(l3());
  b.initialize();
  for (uint32_t cpu = 0; cpu < 2; ++cpu) b.pmcallocate(system_pmcid(Generation::L3, cpu));
  RecordValue kernel = value(Kind::map_in);
  kernel[Field::pid] = 0xFFFFFFFFu;
  kernel[Field::start] = 0xffffffff80200000u;
  kernel.text = "/boot/kernel/kernel";
  b.add(kernel);
  auto sample = [&](uint32_t cpu, uint32_t sec, uint32_t nsec) {
    RecordValue s = value(Kind::callchain);
    s[Field::pid] = kShell;
    s[Field::pmcid] = system_pmcid(Generation::L3, cpu);
    s[Field::cpuflags] = cpu << 16 | 1u;
    s.pcs = {0x401000};
    s.ts_sec = sec;
    s.ts_nsec = nsec;
    return b.add(s);
  };
  sample(0, 1800000000u, 1000);
  sample(0, 1800000000u, 2000);
  RecordValue close = value(Kind::closelog);
  close.ts_sec = 1800000000u;
  close.ts_nsec = 3000;
  b.add(close);
  sample(1, 1799999999u, 900000000 & 0x0FFFFFFFu);  // CPU 1's buffer, from the second before
  return b;
}

TEST(FreeBsdLogs, NormalLogsAreCleanByDefault) {
  for (const LogBuilder& b : {freebsd_m10_system_wide(), freebsd_late_l3()}) {
    const auto r = check(b);
    EXPECT_TRUE(r.diagnostics.empty()) << describe(b.abi()) << "\n" << dump(r);
  }
}

TEST(FreeBsdLogs, PedanticNamesWhatIsNormal) {
  const Config ped = Config::defaults(true, std::nullopt);
  const auto m10 = check(freebsd_m10_system_wide(), ped);
  EXPECT_EQ(m10.errors, 0u) << dump(m10);
  const S m10_ids = ids(m10);
  for (const char* id : {"missing-closelog", "sample-after-exit", "map-out-without-map-in"})
    EXPECT_EQ(m10_ids.count(id), 1u) << id << "\n" << dump(m10);
  EXPECT_EQ(m10_ids.count("nonzero-unwritten"), 6u) << dump(m10);  // one per stale word
  EXPECT_EQ(m10_ids.size(), 9u) << dump(m10);
  const auto l3 = check(freebsd_late_l3(), ped);
  EXPECT_EQ(ids(l3), (S{"record-after-closelog", "time-backwards"})) << dump(l3);
}

// Every rule that --pedantic adds says so in its reason, which --list-rules prints.
TEST(FreeBsdLogs, PedanticRulesSayWhy) {
  for (const auto& r : pmclog::validate::rules()) {
    if (r.when != pmclog::validate::Default::pedantic) continue;
    EXPECT_NE(r.why.find("--pedantic"), std::string_view::npos) << r.id << ": " << r.why;
  }
  for (const char* id : {"missing-closelog", "record-after-closelog", "sample-after-exit",
                         "map-out-without-map-in", "time-backwards"}) {
    const auto rule = pmclog::validate::parse_rule(id);
    ASSERT_TRUE(rule) << id;
    EXPECT_EQ(pmclog::validate::info(*rule).when, pmclog::validate::Default::pedantic) << id;
  }
}

// As CI runs it: --strict passes both logs; --strict --pedantic fails them.
TEST(FreeBsdLogs, StrictPassesAndPedanticFailsOnTheCommandLine) {
  const pmclog_test::ScratchDir dir;
  int n = 0;
  for (const LogBuilder& b : {freebsd_m10_system_wide(), freebsd_late_l3()}) {
    const fs::path log = dir / ("log" + std::to_string(n++) + ".pmclog");
    pmclog_test::write_file(log, b.bytes());
    auto status = [&](const std::vector<std::string>& opts) {
      pmclog_test::RunOptions o;
      o.stdout_path = "/dev/null";
      return pmclog_test::run(pmclog_test::concat({{PMCLOG_VALIDATE_EXE}, opts, {log}}), o).status;
    };
    EXPECT_EQ(status({"--strict"}), 0) << describe(b.abi());
    EXPECT_EQ(status({"--strict", "--pedantic"}), 1) << describe(b.abi());
    EXPECT_EQ(status({"--pedantic"}), 0) << describe(b.abi());  // warnings only
  }
}

}  // namespace
}  // namespace validate_test
