// EV_PMU events (format.md §12.2) in pmclog-dump and pmclog-validate: a modern PMCALLOCATE
// flagged EV_PMU logs an index into the recording system's pmu-events table, which only that
// system's libpmc names. The libraries are the stand-ins built from pmu_events_libpmc.cpp
// (both struct layouts, both cpuid rules, shared and archive, one damaged); the names
// expected are the ones written in that source, not output of the tools.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "run_tool.h"

using namespace dumptest;

namespace {

constexpr const char* kName = "cpu_clk_unhalted.core_p";  // index 0x6a of the Silvermont table
constexpr const char* kNote =
    "pmu-events index 0x6a for GenuineIntel-6-4D-8; the recording system's libpmc names it: "
    "--sysroot or --libpmc";

std::string lib(const std::string& variant, const std::string& ext) {
  return std::string(PMU_LIBPMC_DIR) + "/libpmc_" + variant + "." + ext;
}

// A 15-CURRENT-style log: Silvermont cpuid, two system-mode pmcs (cpu 0 and 1) of pmu-events
// index `index` with the flags FreeBSD writes (CALLCHAIN|EV_PMU|NEEDS_LOGFILE), a sample each.
std::string make_log(const std::string& name, const std::string& index = "0x6a") {
  const std::string dir = temp_dir();
  const std::string jsonl = dir + "/" + name + ".jsonl", log = dir + "/" + name + ".pmclog";
  write_file(jsonl,
             R"({"generation":"M10","type":"initialize","byte_order":"little","address_width":8,)"
             R"("version":"0x0A000000","arch":146,"tsc_freq":2400000000,"cpuid":"GenuineIntel-6-4D-8"})" "\n"
             R"({"type":"pmcallocate","pmcid":"0x00020200","event":")" + index + R"(","flags":"0x20280","rate":65536})" "\n"
             R"({"type":"pmcallocate","pmcid":"0x00120200","event":")" + index + R"(","flags":"0x20280","rate":65536})" "\n"
             R"({"type":"callchain","pid":42,"tid":100,"pmcid":"0x00020200","cpu":0,"usermode":1,"pcs":["0x401000"]})" "\n"
             R"({"type":"callchain","pid":42,"tid":100,"pmcid":"0x00120200","cpu":1,"usermode":1,"pcs":["0x401000"]})" "\n");
  const Ran w = run({PMCLOG_WRITE_EXE, jsonl, "-o", log});
  EXPECT_EQ(w.status, 0) << w.err;
  return log;
}

Ran dump(std::vector<std::string> args, const std::string& log) {
  args.push_back(log);
  return run_dump(args);
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

// What every output of the dump says about the two pmcs, given `opts` to find the tables.
void expect_named(const std::vector<std::string>& opts, const std::string& log, const std::string& what) {
  SCOPED_TRACE(what);
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.begin(), opts.begin(), opts.end());
    const Ran r = dump(a, log);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "") << "no note when the table names the index";
    return r.out;
  };
  const std::string text = with({});
  EXPECT_EQ(count(text, std::string("event=0x6a (") + kName + ")"), 2u) << text;
  const std::string pmcstat = with({"--format=pmcstat"});
  EXPECT_NE(pmcstat.find(std::string("allocate  0x20200 \"") + kName + "\" 0x20280\n"), std::string::npos)
      << pmcstat;
  EXPECT_NE(pmcstat.find(std::string("allocate  0x120200 \"") + kName + "\" 0x20280\n"), std::string::npos)
      << pmcstat;
  const std::string stats = with({"--stats"});
  EXPECT_NE(stats.find(std::string(kName) + " (0x6a)\n"), std::string::npos) << stats;
  EXPECT_NE(stats.find(std::string("0x00020200 event 0x6a \"") + kName + "\" 1 samples"), std::string::npos)
      << stats;
  const auto json = nlohmann::json::parse(with({"--stats", "--format=json"}));
  EXPECT_EQ(json.at("by_event").at("rows").at(0).at("event"), kName) << json.dump();
  EXPECT_EQ(json.at("pmcs").at(0).at("name"), kName) << json.dump();
  const auto jsonl = lines(with({"--format=jsonl"}));
  ASSERT_GE(jsonl.size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(jsonl[1]).at("event_name"), kName) << jsonl[1];
  EXPECT_EQ(nlohmann::json::parse(jsonl[2]).at("event_name"), kName) << jsonl[2];
}

}  // namespace

// Each struct layout (11, 12 pointers) and cpuid rule (exact, regex), as libpmc.so.5 and as
// libpmc.a. The exact libraries list a table whose cpuid, read as a regular expression, would
// match first, and the regex ones have no cpuid equal to the log's: the wrong rule names the
// index after another table (or not at all).
TEST(PmuEvents, EveryLayoutAndCpuidRuleNamesTheIndex) {
  const std::string log = make_log("lp");
  for (const char* v : {"11_exact", "12_exact", "11_regex", "12_regex"})
    for (const char* ext : {"so", "a"}) expect_named({"--libpmc", lib(v, ext)}, log, std::string(v) + "." + ext);
}

// The machines' own ELF flavours: i386 (32-bit pointers, REL relocations whose addend is in
// the slot), aarch64 (R_AARCH64_RELATIVE) and powerpc64 (big-endian).
TEST(PmuEvents, OtherMachinesLibraries) {
  ASSERT_TRUE(PMU_CROSS_BUILT) << "clang++-14 and ld.lld are needed to build them (scripts/setup.sh)";
  const std::string log = make_log("cross");
  for (const char* tg : {"i386-linux-gnu", "aarch64-linux-gnu", "powerpc64-linux-gnu"})
    expect_named({"--libpmc", lib(std::string("12_exact_") + tg, "so")}, log, tg);
}

// --sysroot DIR reads DIR/usr/lib/libpmc.so.5, or DIR/usr/lib/libpmc.a when there is no .so.
TEST(PmuEvents, SysrootHoldsTheLibrary) {
  const std::string log = make_log("sys");
  const std::string so = temp_dir() + "/so-root", ar = temp_dir() + "/a-root";
  for (const auto& d : {so, ar}) std::filesystem::create_directories(d + "/usr/lib");
  write_file(so + "/usr/lib/libpmc.so.5", slurp(lib("12_exact", "so")));
  write_file(ar + "/usr/lib/libpmc.a", slurp(lib("11_regex", "a")));
  expect_named({"--sysroot", so}, log, "sysroot with libpmc.so.5");
  expect_named({"--sysroot", ar}, log, "sysroot with libpmc.a");
}

// Without the tables: the label says it is a pmu-events index (never EVENT_0x6a, never "?"),
// and one note per run says for which cpuid and how to name it, however many allocations and
// files.
TEST(PmuEvents, WithoutTheTablesOneNoteSaysWhatTheNumberIs) {
  const std::string log = make_log("none");
  for (const std::vector<std::string>& f :
       {std::vector<std::string>{}, {"--format=pmcstat"}, {"--stats"}, {"--format=jsonl"}}) {
    std::vector<std::string> a = f;
    a.push_back(log);  // twice: still one note
    const Ran r = dump(a, log);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count(r.err, kNote), 1u) << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.out.find("EVENT_0x6a"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\"?\""), std::string::npos) << r.out;
    const std::string kind = f.empty() ? "text" : f[0];
    if (kind == "text") {
      EXPECT_EQ(count(r.out, "event=0x6a (pmu-event-0x6a)"), 4u) << r.out;
    } else if (kind == "--format=pmcstat") {
      EXPECT_EQ(count(r.out, "\"pmu-event-0x6a\" 0x20280"), 4u) << r.out;
    } else if (kind == "--stats") {
      EXPECT_EQ(count(r.out, "pmu-event-0x6a"), 2 * 3u) << r.out;  // by event, and each pmc
    } else {
      EXPECT_EQ(nlohmann::json::parse(lines(r.out)[1]).at("event_name"), nullptr) << r.out;
    }
  }
  // A sysroot without libpmc says so.
  const Ran r = dump({"--sysroot", temp_dir()}, log);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("has no usr/lib/libpmc.so.5 or usr/lib/libpmc.a"), std::string::npos) << r.err;
}

// An index the chosen table does not name (a nameless metric entry, or past its end) keeps
// its label, and the note says why.
TEST(PmuEvents, IndexTheTableDoesNotName) {
  const Ran metric = dump({"--libpmc", lib("11_exact", "so")}, make_log("metric", "0x6c"));
  EXPECT_NE(metric.out.find("event=0x6c (pmu-event-0x6c)"), std::string::npos) << metric.out;
  EXPECT_NE(metric.err.find("entry 0x6c of "), std::string::npos) << metric.err;
  EXPECT_NE(metric.err.find("has no name (a metric)"), std::string::npos) << metric.err;
  const Ran past = dump({"--libpmc", lib("12_regex", "a")}, make_log("past", "0x200"));
  EXPECT_NE(past.out.find("event=0x200 (pmu-event-0x200)"), std::string::npos) << past.out;
  EXPECT_NE(past.err.find("for cpuid \"GenuineIntel-6-4[CD]\" has 109 entries"), std::string::npos)
      << past.err;
}

// JSON Lines with event_name reads back into the same bytes (pmclog-write skips the member).
TEST(PmuEvents, JsonlWithTheNameRoundTrips) {
  const std::string log = make_log("rt");
  const std::string back = temp_dir() + "/rt-back.pmclog";
  const Ran r = jsonl_to_write({"--libpmc", lib("11_exact", "so"), log}, {"-o", back});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(back), slurp(log));
}

// A library that is not what it should be: exit 2 and a message naming the file and what is
// wrong, before any record is printed.
TEST(PmuEvents, DamagedLibraryIsAClearError) {
  const std::string log = make_log("bad");
  struct Case {
    std::string file, says;
  };
  const std::string dir = temp_dir();
  const std::string good = slurp(lib("11_exact", "so"));
  write_file(dir + "/cut.so", good.substr(0, good.size() / 2));
  write_file(dir + "/text.so", "not a library\n");
  for (const Case& c : {Case{lib("11_damaged", "so"), "pmu_events_map[1].table (cpuid \"GenuineIntel-6-4D-8\") is NULL"},
                        Case{lib("11_damaged", "a"), "pmu_events_map[1].table (cpuid \"GenuineIntel-6-4D-8\") is NULL"},
                        Case{dir + "/cut.so", "the file is cut short or damaged: its section headers"},
                        Case{dir + "/text.so", "not an ELF file or an ar archive"}}) {
    const Ran r = dump({"--libpmc", c.file}, log);
    EXPECT_EQ(r.status, 2) << c.file;
    EXPECT_EQ(r.out, "") << c.file;
    EXPECT_EQ(r.err.rfind("pmclog-dump: " + c.file + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(": " + c.says), std::string::npos) << r.err;
  }
  // A missing one is a usage error, before any work, naming the option.
  const Ran absent = dump({"--libpmc", dir + "/absent.so"}, log);
  EXPECT_EQ(absent.status, 2);
  EXPECT_EQ(absent.err, "pmclog-dump: --libpmc: '" + dir +
                            "/absent.so': No such file or directory\nTry 'pmclog-dump --help'.\n");
  // The archive's message names the member.
  EXPECT_NE(dump({"--libpmc", lib("11_damaged", "a")}, log).err.find("member pmu_events_libpmc.cpp.o: "),
            std::string::npos);
}

// pmclog-validate: named by the table, the event passes; a table that does not name it is a
// warning saying why (pmcstat cannot name it either); without a table, one note per run.
TEST(PmuEventsValidate, NamesFromTheTable) {
  const std::string log = make_log("val");
  const std::string v = PMCLOG_VALIDATE_EXE;
  const Ran named =
      run({v, "--disable", "missing-closelog", "--strict", "--libpmc", lib("12_regex", "so"), log});
  EXPECT_EQ(named.status, 0) << named.out << named.err;
  EXPECT_EQ(named.err, "");
  const Ran unnamed = run({v, "--libpmc", lib("11_exact", "so"), make_log("val-past", "0x200")});
  EXPECT_EQ(count(unnamed.out, "PMCALLOCATE pmu-events index 0x200 for GenuineIntel-6-4D-8 is unnamed: "), 2u)
      << unnamed.out;
  EXPECT_NE(unnamed.out.find("[event-unknown-to-libpmc]"), std::string::npos) << unnamed.out;
  const Ran none = run({v, log, log});
  EXPECT_EQ(count(none.err, kNote), 1u) << none.err;
  EXPECT_EQ(none.out.find("event-unknown-to-libpmc"), std::string::npos) << none.out;
  const Ran bad = run({v, "--libpmc", lib("11_damaged", "so"), log});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("is NULL"), std::string::npos) << bad.err;
}
