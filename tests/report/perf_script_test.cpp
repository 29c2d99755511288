// --format perf-script: every sample in the layout of `perf script -F
// comm,pid,tid,cpu,time,period,event,ip,sym,dso` with callchains (perf's builtin-script.c):
// "COMM PID/TID [CPU] SECS.USECS: PERIOD EVENT: " then "\t%16x SYM (DSO)" per frame, leaf
// first, at the address the process ran it (perf 6.5 on: the callchain's raw ip), and a blank
// line. Checked on the committed log against its records (golden.jsonl), with the regular
// expressions of speedscope's perf-script importer, on logs built here whose addresses and
// periods are known, on a recorded workload, and for memory on a log of a million samples.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "report_support.h"


namespace {

using reptest::hex;

const std::string kGolden = std::string(REPORT_FIXTURES) + "/golden.pmclog";
const std::string kGoldenJsonl = std::string(REPORT_FIXTURES) + "/golden.jsonl";

// A JSON Lines field of golden.jsonl's flat records ("" when absent).
std::string field(const std::string& line, const std::string& name) {
  const std::regex re("\"" + name + "\":(\"[^\"]*\"|\\[[^\\]]*\\]|-?[0-9]+)");
  std::smatch m;
  if (!std::regex_search(line, m, re)) return "";
  std::string v = m[1];
  if (!v.empty() && v.front() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

uint64_t num(const std::string& s) { return std::strtoull(s.c_str(), nullptr, 0); }

struct Frame {
  uint64_t addr;
  std::string dso;
};
struct Expected {
  uint64_t tsc;
  std::string comm;
  uint32_t pid, tid, cpu;
  uint64_t period;
  std::vector<Frame> frames;
};

// The samples of golden.jsonl as perf script shows them, worked out from the records alone:
// in TSC order; a process is named by the base name of what it executed (a fork keeps its
// parent's name and mappings); the period is the rate of the sample's pmc allocation; every
// frame is its address in the record, with the path of the mapping it falls in (PROCEXEC
// dynaddr, MAP_IN start; --sysroot is empty, so no symbol), [unknown] below every mapping,
// and [kernel.kallsyms] (perf's name for the kernel image) for a kernel frame.
std::vector<Expected> golden_samples(uint64_t& first_tsc, uint64_t& freq) {
  std::ifstream in(kGoldenJsonl);
  std::string line;
  std::map<uint32_t, std::map<uint64_t, std::string>> maps;  // pid -> start -> path
  std::map<uint32_t, std::string> comm;
  std::map<uint64_t, std::string> kernel;
  std::map<uint64_t, uint64_t> rate;  // pmcid -> events per sample
  std::vector<std::string> records;
  while (std::getline(in, line)) records.push_back(line);
  std::stable_sort(records.begin(), records.end(), [](const std::string& a, const std::string& b) {
    return num(field(a, "tsc")) < num(field(b, "tsc"));
  });
  first_tsc = num(field(records.front(), "tsc"));
  std::vector<Expected> out;
  for (const auto& r : records) {
    const std::string type = field(r, "type");
    const uint32_t pid = static_cast<uint32_t>(num(field(r, "pid")));
    if (type == "initialize") freq = num(field(r, "tsc_freq"));
    if (type == "pmcallocatedyn") rate[num(field(r, "pmcid"))] = num(field(r, "rate"));
    if (type == "map-in" && pid == 0xFFFFFFFFu) kernel[num(field(r, "start_hex"))] = field(r, "path");
    if (type == "map-in" && pid != 0xFFFFFFFFu) maps[pid][num(field(r, "start_hex"))] = field(r, "path");
    if (type == "procexec") {
      const std::string path = field(r, "path");
      maps[pid].clear();
      maps[pid][num(field(r, "dynaddr_hex"))] = path;
      comm[pid] = path.substr(path.rfind('/') + 1);
    }
    if (type == "procfork") {
      const auto from = static_cast<uint32_t>(num(field(r, "oldpid")));
      const auto to = static_cast<uint32_t>(num(field(r, "newpid")));
      maps[to] = maps[from];
      comm[to] = comm[from];
    }
    if (type != "callchain") continue;
    Expected e{num(field(r, "tsc")), comm[pid], pid, static_cast<uint32_t>(num(field(r, "tid"))),
               static_cast<uint32_t>(num(field(r, "cpu"))), rate.at(num(field(r, "pmcid"))), {}};
    const bool user = field(r, "usermode") == "1";
    std::string pcs = field(r, "pcs_hex");
    for (const std::regex hex("\"(0x[0-9a-f]+)\""); ;) {
      std::smatch m;
      if (!std::regex_search(pcs, m, hex)) break;
      const uint64_t pc = num(m[1]);
      pcs = m.suffix();
      if (!user && !kernel.empty() && pc >= kernel.begin()->first) {
        e.frames.push_back({pc, "[kernel.kallsyms]"});
        continue;
      }
      auto& m2 = maps[pid];
      auto it = m2.upper_bound(pc);
      if (it == m2.begin()) {
        e.frames.push_back({pc, "[unknown]"});
      } else {
        --it;
        e.frames.push_back({pc, it->second});
      }
    }
    out.push_back(e);
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

TEST(PerfScript, GoldenLogLineByLineFromItsRecords) {
  uint64_t first = 0, freq = 0;
  const std::vector<Expected> want = golden_samples(first, freq);
  ASSERT_EQ(want.size(), 6u);
  ASSERT_EQ(freq, 1000000000u);
  for (const Expected& e : want) ASSERT_EQ(e.period, 1000u);  // golden.jsonl's rate
  reptest::ScratchDir empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "perf-script", "--sysroot", empty.str(), kGolden});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto got = lines_of(r.out);
  size_t at = 0;
  for (const Expected& e : want) {
    SCOPED_TRACE("sample at TSC " + std::to_string(e.tsc));
    // Seconds from the log's first record, microseconds truncated as perf does.
    const uint64_t ns = (e.tsc - first) * 1000000000ull / freq;
    char head[160];
    std::snprintf(head, sizeof head, "%s %5d/%-5d [%03u] %5llu.%06llu: %10llu cpu-clock: ",
                  e.comm.c_str(), static_cast<int>(e.pid), static_cast<int>(e.tid), e.cpu,
                  static_cast<unsigned long long>(ns / 1000000000ull),
                  static_cast<unsigned long long>(ns % 1000000000ull / 1000),
                  static_cast<unsigned long long>(e.period));
    ASSERT_LT(at, got.size());
    EXPECT_EQ(got[at++], head);
    for (const Frame& f : e.frames) {
      char line[160];
      std::snprintf(line, sizeof line, "\t%16llx [unknown] (%s)", static_cast<unsigned long long>(f.addr),
                    f.dso.c_str());
      ASSERT_LT(at, got.size());
      EXPECT_EQ(got[at++], line);
    }
    ASSERT_LT(at, got.size());
    EXPECT_EQ(got[at++], "") << "a blank line after each sample";
  }
  EXPECT_EQ(at, got.size()) << r.out;
}

// speedscope's importer (src/import/linux-tools-perf.ts): samples split at blank lines; the
// first line gives command, pid/tid, time and event by these expressions, each frame line by
// ^\s*(\w+)\s*(.+) \((\S*)\) with a "+0x..." offset stripped from the symbol.
struct Parsed {
  std::string command, event;
  long pid = -1, tid = -1;
  double time = -1;
  std::vector<std::array<std::string, 3>> frames;  // address, symbol, file
};

std::vector<Parsed> parse_like_speedscope(const std::string& text) {
  std::vector<Parsed> out;
  const std::regex start(R"(^(\S.+?)\s+(\d+)(?:\/?(\d+))?\s+)"), time(R"(\s+(\d+\.\d+):\s+)"),
      ev(R"((\S+):\s*$)"), frame(R"(^\s*(\w+)\s*(.+) \((\S*)\))"), off(R"(\+0x[\da-f]+$)");
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find("\n\n", pos);
    if (end == std::string::npos) end = text.size();
    const auto ls = lines_of(text.substr(pos, end - pos));
    pos = end + 2;
    if (ls.empty()) continue;
    Parsed p;
    std::smatch m;
    if (!std::regex_search(ls[0], m, start)) continue;
    p.command = m[1];
    if (m[3].matched) {
      p.pid = std::stol(m[2]);
      p.tid = std::stol(m[3]);
    } else {
      p.tid = std::stol(m[2]);
    }
    if (std::regex_search(ls[0], m, time)) p.time = std::stod(m[1]);
    if (std::regex_search(ls[0], m, ev)) p.event = m[1];
    for (size_t i = 1; i < ls.size(); ++i)
      if (std::regex_search(ls[i], m, frame))
        p.frames.push_back({m[1].str(), std::regex_replace(m[2].str(), off, ""), m[3].str()});
    out.push_back(p);
  }
  return out;
}

TEST(PerfScript, GoldenLogReadBySpeedscopesExpressions) {
  uint64_t first = 0, freq = 0;
  const std::vector<Expected> want = golden_samples(first, freq);
  reptest::ScratchDir empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "perf-script", "--sysroot", empty.str(), kGolden});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto got = parse_like_speedscope(r.out);
  ASSERT_EQ(got.size(), want.size()) << r.out;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].command, want[i].comm);
    EXPECT_EQ(got[i].pid, static_cast<long>(want[i].pid));
    EXPECT_EQ(got[i].tid, static_cast<long>(want[i].tid));
    EXPECT_NEAR(got[i].time, static_cast<double>(want[i].tsc - first) / static_cast<double>(freq), 1e-6);
    EXPECT_EQ(got[i].event, "cpu-clock");
    ASSERT_EQ(got[i].frames.size(), want[i].frames.size());
    for (size_t k = 0; k < want[i].frames.size(); ++k) {
      EXPECT_EQ(num("0x" + got[i].frames[k][0]), want[i].frames[k].addr);
      EXPECT_EQ(got[i].frames[k][1], "[unknown]");
      EXPECT_EQ(got[i].frames[k][2], want[i].frames[k].dso);
    }
  }
}

TEST(PerfScript, RecordedWorkloadHasItsHotFunctionAtItsAddresses) {
  reptest::ScratchDir d;
  const std::string log = d.file("hot.pmclog");
  // M10: nanosecond times, so that time order is checked whatever the recorder's default.
  const auto rec =
      reptest::run({RECORD_EXE, "--generation", "M10", "-o", log, "--", WORKLOAD_HOT, "0.6"});
  ASSERT_EQ(rec.status, 0) << rec.err;
  const auto r = reptest::run({REPORT_EXE, "--format", "perf-script,folded", "-o", d.file("ps"), "-o",
                               d.file("f"), log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto samples = parse_like_speedscope(reptest::slurp(d.file("ps")));
  uint64_t folded = 0;
  for (const auto& [s, n] : reptest::parse_folded(reptest::slurp(d.file("f")))) folded += n;
  ASSERT_EQ(samples.size(), folded) << "one perf-script sample per sample";
  // The leaf function's addresses are where the PIE ran: nm's address of the symbol plus
  // the printed offset (perf's sym+0xOFF) plus the load bias, one page-aligned bias for the
  // process, not 0 (Linux loads a PIE high); the stack above it is the known chain.
  const uint64_t lo = reptest::symbol_address(WORKLOAD_HOT, "_ZN7hotspot8leaf_hotEm");
  const uint64_t hi = reptest::symbol_address(WORKLOAD_HOT, "_ZN7hotspot13middle_callerEm");
  ASSERT_NE(lo, 0u);
  const std::string text = reptest::slurp(d.file("ps"));
  const std::regex leaf_line(R"(\t\s*([0-9a-f]+) hotspot::leaf_hot\(unsigned long\)\+0x([0-9a-f]+) \()");
  std::set<uint64_t> biases;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), leaf_line); it != std::sregex_iterator(); ++it)
    biases.insert(num("0x" + (*it)[1].str()) - num("0x" + (*it)[2].str()) - lo);
  ASSERT_EQ(biases.size(), 1u) << "one load bias";
  const uint64_t bias = *biases.begin();
  EXPECT_NE(bias, 0u) << "object addresses, not where the process ran them";
  EXPECT_EQ(bias % 4096, 0u);
  size_t hot = 0;
  double last = -1;
  for (const auto& s : samples) {
    EXPECT_EQ(s.event, "cpu-clock");
    EXPECT_GE(s.time, last) << "time order";
    last = s.time;
    ASSERT_FALSE(s.frames.empty());
    if (s.frames[0][1] != "hotspot::leaf_hot(unsigned long)") continue;
    ++hot;
    const uint64_t a = num("0x" + s.frames[0][0]) - bias;
    EXPECT_GE(a, lo);
    if (hi > lo) {
      EXPECT_LT(a, hi);
    }
    EXPECT_EQ(s.frames[0][2], WORKLOAD_HOT);
    ASSERT_GE(s.frames.size(), 4u);
    EXPECT_EQ(s.frames[1][1], "hotspot::middle_caller(unsigned long)");
    EXPECT_EQ(s.frames[2][1], "hotspot::outer_caller(unsigned long)");
    EXPECT_EQ(s.frames[3][1], "main");
    EXPECT_GT(s.pid, 0);
  }
  EXPECT_GT(hot, samples.size() / 2);
}

// Two processes of one program load the same libc at different bases; three pmcs of three
// rates. Every frame must show the address its process ran (not the offset in the object,
// which both share), the symbol with perf's sym+0xOFF (OFF = that address minus where the
// symbol was loaded), and each sample its pmc's rate as the period (1 where the allocation
// gives none: a frequency-mode pmc). All of it follows from the records written here.
TEST(PerfScript, AddressesArePerProcessAndPeriodsPerPmc) {
  reptest::ScratchDir d;
  const std::string root = d.file("root");
  reptest::copy_as_freebsd_elf(FAKE_LIBC, root + "/lib/libc.so.7");
  reptest::copy_as_freebsd_elf(FAKE_PROG, root + "/usr/bin/fakeprog");
  const uint64_t lib_exec = reptest::exec_segment_page(FAKE_LIBC);
  const uint64_t memcpy_at = reptest::symbol_address(FAKE_LIBC, "fbsd_memcpy");
  const uint64_t write_at = reptest::symbol_address(FAKE_LIBC, "fbsd_write");
  const uint64_t work = reptest::symbol_address(FAKE_PROG, "fakeprog_work");
  ASSERT_NE(memcpy_at, 0u);
  ASSERT_NE(work, 0u);
  const uint64_t base10 = 0x800200000, base11 = 0x800a00000;
  struct Pmc {
    uint64_t id;
    const char* name;
    uint64_t rate, period;
  };
  const Pmc pmcs[] = {{4294053632u, "cpu-clock", 1000, 1000},
                      {4294053633u, "instructions", 65536, 65536},
                      {4294053634u, "cycles", 0, 1}};
  std::vector<std::string> l{
      R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,"version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"ps","tsc":1000})"};
  for (const Pmc& p : pmcs)
    l.push_back(R"({"type":"pmcallocatedyn","pmcid":)" + std::to_string(p.id) +
                R"(,"event":131072,"flags":386,"rate":)" + std::to_string(p.rate) + R"(,"evname":")" +
                p.name + R"(","tsc":1001})");
  for (uint32_t pid : {10u, 11u}) {
    l.push_back(R"({"type":"procexec","pid":)" + std::to_string(pid) +
                R"(,"pmcid":4294053632,"entryaddr":0,"dynaddr":0,"path":"/usr/bin/fakeprog","tsc":1002})");
    l.push_back(R"({"type":"map-in","pid":)" + std::to_string(pid) + R"(,"start_hex":")" +
                hex((pid == 10 ? base10 : base11) + lib_exec) + R"(","path":"/lib/libc.so.7","tsc":1003})");
  }
  struct Want {
    uint32_t pid;
    const Pmc* pmc;
    std::vector<std::pair<uint64_t, std::string>> frames;  // address, "SYM+0xOFF (DSO)"
  };
  const std::vector<Want> want{
      {10, &pmcs[0], {{base10 + memcpy_at + 3, "fbsd_memcpy+0x3 (/lib/libc.so.7)"},
                      {work + 4, "fakeprog_work+0x4 (/usr/bin/fakeprog)"}}},
      {11, &pmcs[0], {{base11 + memcpy_at + 3, "fbsd_memcpy+0x3 (/lib/libc.so.7)"},
                      {work + 4, "fakeprog_work+0x4 (/usr/bin/fakeprog)"}}},
      {11, &pmcs[1], {{base11 + write_at + 1, "fbsd_write+0x1 (/lib/libc.so.7)"},
                      {work + 2, "fakeprog_work+0x2 (/usr/bin/fakeprog)"}}},
      {10, &pmcs[2], {{0x500, "[unknown] ([unknown])"}, {work + 2, "fakeprog_work+0x2 (/usr/bin/fakeprog)"}}},
  };
  uint64_t tsc = 2000;
  for (const Want& w : want) {
    std::string pcs;
    for (const auto& f : w.frames) pcs += (pcs.empty() ? "\"" : ",\"") + hex(f.first) + "\"";
    l.push_back(R"({"type":"callchain","pid":)" + std::to_string(w.pid) + R"(,"tid":)" +
                std::to_string(w.pid * 10) + R"(,"pmcid":)" + std::to_string(w.pmc->id) +
                R"(,"cpu":1,"usermode":1,"pcs_hex":[)" + pcs + R"(],"tsc":)" + std::to_string(tsc) + "}");
    tsc += 1000;
  }
  const std::string log = reptest::write_log(d, "two.pmclog", l);
  const auto r = reptest::run({REPORT_EXE, "--format", "perf-script", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto got = lines_of(r.out);
  size_t at = 0;
  tsc = 2000;
  for (const Want& w : want) {
    char head[160];
    const uint64_t us = (tsc - 1000) / 1000;  // from the first record, in microseconds
    std::snprintf(head, sizeof head, "fakeprog %5u/%-5u [001] %5llu.%06llu: %10llu %s: ", w.pid,
                  w.pid * 10, static_cast<unsigned long long>(us / 1000000),
                  static_cast<unsigned long long>(us % 1000000),
                  static_cast<unsigned long long>(w.pmc->period), w.pmc->name);
    tsc += 1000;
    ASSERT_LT(at, got.size()) << r.out;
    EXPECT_EQ(got[at++], head);
    for (const auto& [addr, rest] : w.frames) {
      char line[200];
      std::snprintf(line, sizeof line, "\t%16llx %s", static_cast<unsigned long long>(addr), rest.c_str());
      ASSERT_LT(at, got.size()) << r.out;
      EXPECT_EQ(got[at++], line);
    }
    ASSERT_LT(at, got.size());
    EXPECT_EQ(got[at++], "");
  }
  EXPECT_EQ(at, got.size()) << r.out;
}

// Peak resident memory (KiB) of pmclog-report with these arguments, its text to `out`.
long peak_kib(const std::vector<std::string>& args, const std::string& out = "/dev/null") {
  std::vector<std::string> argv{REPORT_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  pmclog_test::RunOptions o;
  o.stdout_path = out;
  const reptest::Ran r = pmclog_test::run(argv, o);
  return r.status == 0 ? r.max_rss_kib : -1;
}

// perf-script prints every sample, yet must not keep one: on a log of 600,000 samples of one
// stack its peak memory is that of folded, which keeps only distinct stacks, give or take
// its 1 MiB of text in flight. (Kept samples cost 24 bytes each, 37 MB here at the vector's
// last doubling.) The log is made by repeating one CALLCHAIN record after a header.
TEST(PerfScript, MemoryStaysFlatHoweverManySamples) {
  reptest::ScratchDir d;
  const std::vector<std::string> head{
      reptest::synthetic::kInit, reptest::synthetic::kCpuClock,
      R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"/usr/bin/a"})"};
  auto one = head;
  one.push_back(
      R"({"type":"callchain","pid":50,"tid":51,"pmcid":4294053632,"cpu":0,"usermode":1,"pcs_hex":["0x1001010","0x1001020"]})");
  const std::string h = reptest::slurp(reptest::write_log(d, "head.pmclog", head));
  const std::string h1 = reptest::slurp(reptest::write_log(d, "one.pmclog", one));
  ASSERT_GT(h1.size(), h.size());
  ASSERT_EQ(h1.compare(0, h.size(), h), 0) << "the sample is not written after the header";
  const std::string record = h1.substr(h.size());
  constexpr size_t kSamples = 600000;
  std::string bytes = h;
  bytes.reserve(h.size() + record.size() * kSamples);
  for (size_t i = 0; i < kSamples; ++i) bytes += record;
  const std::string log = d.file("many.pmclog");
  reptest::write_file(log, bytes);
  bytes = std::string();
  const std::string empty = d.file("empty");
  reptest::make_dirs(empty);
  const long folded = peak_kib({"--sysroot", empty, "--format", "folded", log});
  const long script = peak_kib({"--sysroot", empty, "--format", "perf-script", log}, d.file("many.txt"));
  ASSERT_GT(folded, 0);
  ASSERT_GT(script, 0);
  EXPECT_LT(script, folded + 8 * 1024) << "perf-script " << script << " KiB, folded " << folded << " KiB";
  // And every sample was printed: all at one time, each is the one sample's text.
  const auto r = reptest::run({REPORT_EXE, "--sysroot", empty, "--format", "perf-script", d.file("one.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_FALSE(r.out.empty());
  struct stat st {};
  ASSERT_EQ(stat(d.file("many.txt").c_str(), &st), 0);
  EXPECT_EQ(static_cast<size_t>(st.st_size), r.out.size() * kSamples);
}

TEST(PerfScript, NamesNeverSplitALine) {
  reptest::ScratchDir d, empty;
  const std::string log = reptest::write_log(d, "names.pmclog", {
      R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,"version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"ps","tsc":1000})",
      R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu\nclock","tsc":1001})",
      R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"/usr/bin/a\nb\u001b[31m","tsc":1004})",
      R"({"type":"callchain","pid":50,"tid":51,"pmcid":4294053632,"cpu":3,"usermode":1,"pcs_hex":["0x1000010","0x1000020"],"tsc":2000})",
      R"({"type":"closelog","tsc":3000})"});
  const auto r = reptest::run({REPORT_EXE, "--format", "perf-script", "--sysroot", empty.str(), log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  const auto ls = lines_of(r.out);
  ASSERT_EQ(ls.size(), 4u) << r.out;  // header, two frames, blank
  const auto p = parse_like_speedscope(r.out);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pid, 50);
  EXPECT_EQ(p[0].tid, 51);
  EXPECT_EQ(p[0].frames.size(), 2u);
  EXPECT_NE(ls[0].find("[003]"), std::string::npos) << ls[0];
}

}  // namespace
