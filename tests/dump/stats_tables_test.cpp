// --stats tables: samples per process, command, event and cpu with their
// user/kernel split, top N, the kernel's pid -1 apart, execs grouped by path. Every expected
// count is tallied here while the log is built (or read back from the dump's JSON Lines for a
// synthetic log), never taken from an earlier run of the dump.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <tuple>

#include "build_log.h"
#include "pmclog/text.h"
#include "run_tool.h"

using namespace dumptest;
using nlohmann::json;
using pmclog::Field;
using pmclog::Kind;

namespace {

struct Split {
  uint64_t user = 0, kernel = 0;
  bool operator==(const Split&) const = default;
};
std::ostream& operator<<(std::ostream& o, const Split& s) {
  return o << "{user " << s.user << ", kernel " << s.kernel << "}";
}

constexpr uint32_t kDynPmc = 0xff000d01;   // process-mode soft pmc, named by the log
constexpr uint32_t kSysPmc = 0x02000702;   // system-mode pmc on cpu 2, a code no table names
constexpr uint32_t kOddCode = 0xABCDEF;
const std::string kHostile = "/tmp/ev\x1b[31mil\ncmd\xc2\x9b";

// A log and what --stats must say about it.
struct Profile {
  std::string bytes;
  std::map<std::pair<int64_t, std::string>, Split> procs;  // (pid, command or "") -> samples
  std::map<std::string, Split> events;                     // event name, or "code:N"
  std::map<int64_t, Split> cpus;
  std::map<std::string, uint64_t> execs;
  std::set<int64_t> pids;  // every pid the records mention, the kernel's -1 left out
  Split kernel_pid, all;
};

// An L3 log: a shell, 200 runs of gzip, a process sampled before and after it execs make,
// kernel samples (pid -1), a pid nothing names, a pid named only after its samples, and a
// program whose path holds terminal control bytes.
Profile build_profile() {
  Profile p;
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  auto& init = b.add(Kind::initialize);
  init[Field::version] = 0x03010000;
  init[Field::arch] = 0x86;
  auto& dyn = b.add(Kind::pmcallocatedyn);
  dyn[Field::pmcid] = kDynPmc;
  dyn[Field::event] = 0x20005;
  dyn[Field::flags] = 0x80;
  dyn.text = "CYCLES.X";
  auto& sys = b.add(Kind::pmcallocate);
  sys[Field::pmcid] = kSysPmc;
  sys[Field::event] = kOddCode;
  sys[Field::flags] = 0x80;
  uint64_t n = 0;
  auto mention = [&](int64_t pid) {
    if (pid != -1) p.pids.insert(pid);
  };
  // `name` is the command the sample must be counted under ("" for none).
  auto sample = [&](int64_t pid, const std::string& name) {
    const bool user = pid != -1 && n % 4 != 0;
    const uint32_t cpu = static_cast<uint32_t>(n % 3);
    const bool on_dyn = n % 2 == 0;
    ++n;
    auto& r = b.add(Kind::callchain);
    r[Field::pid] = static_cast<uint32_t>(pid);
    r[Field::pmcid] = on_dyn ? kDynPmc : kSysPmc;
    r[Field::cpuflags] = cpu << 16 | (user ? 1u : 0u);
    r.pcs = {user ? 0x401000u : 0xffffffff80201000u};
    mention(pid);
    auto bump = [&](Split& s) { ++(user ? s.user : s.kernel); };
    bump(p.all);
    bump(p.cpus[cpu]);
    bump(p.events[on_dyn ? "CYCLES.X" : "code:" + std::to_string(kOddCode)]);
    if (pid == -1) bump(p.kernel_pid);
    else bump(p.procs[{pid, name}]);
  };
  auto exec = [&](int64_t pid, const std::string& path) {
    auto& r = b.add(Kind::procexec);
    r[Field::pid] = static_cast<uint32_t>(pid);
    r[Field::pmcid] = 0xFFFFFFFF;
    r[Field::entryaddr] = 0x401000;
    r.text = path;
    ++p.execs[path];
    mention(pid);
  };
  auto fork = [&](int64_t parent, int64_t child) {
    auto& r = b.add(Kind::procfork);
    r[Field::oldpid] = static_cast<uint32_t>(parent);
    r[Field::newpid] = static_cast<uint32_t>(child);
    mention(parent);
    mention(child);
  };

  exec(100, "/bin/sh");
  for (int i = 0; i < 20; ++i) sample(100, "sh");
  for (int i = 0; i < 200; ++i) {
    const int64_t pid = 1000 + i;
    fork(100, pid);
    exec(pid, "/usr/bin/gzip");
    for (int k = 0; k <= i % 3; ++k) sample(pid, "gzip");
    auto& x = b.add(Kind::sysexit);
    x[Field::pid] = static_cast<uint32_t>(pid);
  }
  fork(100, 500);  // the child is "sh" until it execs make
  for (int i = 0; i < 5; ++i) sample(500, "sh");
  exec(500, "/usr/bin/make");
  for (int i = 0; i < 7; ++i) sample(500, "make");
  for (int i = 0; i < 4; ++i) sample(-1, "");
  for (int i = 0; i < 3; ++i) sample(777, "");
  for (int i = 0; i < 2; ++i) sample(888, "late");  // named by the PMCATTACH below
  auto& at = b.add(Kind::pmcattach);
  at[Field::pmcid] = kDynPmc;
  at[Field::pid] = 888;
  at.text = "/opt/app/late";
  mention(888);
  exec(999, kHostile);
  sample(999, kHostile.substr(5));
  b.add(Kind::closelog);
  p.bytes = b.finish();
  return p;
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  const std::string path = temp_dir() + "/" + name;
  write_file(path, bytes);
  return path;
}

Split split_of(const json& row) {
  EXPECT_EQ(row.at("samples").get<uint64_t>(),
            row.at("user").get<uint64_t>() + row.at("kernel").get<uint64_t>());
  return {row.at("user").get<uint64_t>(), row.at("kernel").get<uint64_t>()};
}

json stats_json(const std::vector<std::string>& args, int want_status = 0) {
  std::vector<std::string> a = {"--stats", "--format=json"};
  a.insert(a.end(), args.begin(), args.end());
  const Ran r = run_dump(a);
  EXPECT_EQ(r.status, want_status) << r.err;
  json j;
  EXPECT_NO_THROW(j = json::parse(r.out)) << r.out;
  return j;
}

std::map<std::pair<int64_t, std::string>, Split> json_procs(const json& j) {
  std::map<std::pair<int64_t, std::string>, Split> m;
  for (const auto& row : j.at("by_process").at("rows")) {
    const std::string name = row.at("command").is_null() ? "" : row.at("command").get<std::string>();
    EXPECT_TRUE(m.emplace(std::pair{row.at("pid").get<int64_t>(), name}, split_of(row)).second);
  }
  return m;
}

// The table rows of one text section: the lines after its column heads, up to the next
// line that does not start with two spaces and a digit (the "(N more" line ends it too).
std::vector<std::string> section(const std::string& out, const std::string& title) {
  std::vector<std::string> rows;
  const auto ls = lines(out);
  size_t i = 0;
  while (i < ls.size() && ls[i].rfind(title, 0) != 0) ++i;
  EXPECT_LT(i, ls.size()) << "no section " << title << " in\n" << out;
  for (i += 2; i < ls.size(); ++i) {
    const auto first = ls[i].find_first_not_of(' ');
    if (ls[i].rfind("  ", 0) != 0 || first == std::string::npos || !isdigit(ls[i][first])) break;
    rows.push_back(ls[i]);
  }
  return rows;
}

uint64_t first_number(const std::string& row) { return std::stoull(row); }

}  // namespace

TEST(StatsTables, JsonCountsMatchTheInput) {
  const Profile p = build_profile();
  const std::string path = write_temp("profile.pmclog", p.bytes);
  const json j = stats_json({path});
  EXPECT_EQ(j["processes"].get<uint64_t>(), p.pids.size());  // -1 is not a process
  EXPECT_EQ(j["samples"]["user"].get<uint64_t>(), p.all.user);
  EXPECT_EQ(j["samples"]["kernel"].get<uint64_t>(), p.all.kernel);
  EXPECT_EQ(split_of(j["kernel_pid"]), p.kernel_pid);
  // JSON lists every row unless --top is given.
  EXPECT_EQ(json_procs(j), p.procs);
  EXPECT_EQ(j["by_process"]["count"].get<size_t>(), p.procs.size());

  std::map<std::string, std::pair<uint64_t, Split>> commands;
  for (const auto& [key, s] : p.procs) {
    auto& c = commands[key.second];
    ++c.first;
    c.second.user += s.user;
    c.second.kernel += s.kernel;
  }
  std::map<std::string, std::pair<uint64_t, Split>> got_commands;
  for (const auto& row : j["by_command"]["rows"]) {
    const std::string name = row["command"].is_null() ? "" : row["command"].get<std::string>();
    got_commands[name] = {row["processes"].get<uint64_t>(), split_of(row)};
  }
  EXPECT_EQ(got_commands, commands);
  EXPECT_EQ(got_commands["gzip"].first, 200u);
  EXPECT_EQ(got_commands["sh"].first, 2u);  // the shell and the child before it exec'd make

  std::map<std::string, Split> events;
  for (const auto& row : j["by_event"]["rows"]) {
    ASSERT_EQ(row["codes"].size(), 1u) << row;
    const std::string key = row["event"].is_null()
                                ? "code:" + std::to_string(row["codes"][0].get<uint32_t>())
                                : row["event"].get<std::string>();
    events[key] = split_of(row);
  }
  EXPECT_EQ(events, p.events);

  std::map<int64_t, Split> cpus;
  for (const auto& row : j["by_cpu"]["rows"]) cpus[row["cpu"].get<int64_t>()] = split_of(row);
  EXPECT_EQ(cpus, p.cpus);

  std::map<std::string, uint64_t> execs;
  for (const auto& e : j["execs"]) execs[e["path"].get<std::string>()] = e["count"].get<uint64_t>();
  EXPECT_EQ(execs, p.execs);
  EXPECT_EQ(j["execs"].size(), p.execs.size());  // 200 runs of gzip: one entry
}

TEST(StatsTables, TextTopNSortedKernelApartAndGrouped) {
  const Profile p = build_profile();
  const std::string path = write_temp("profile-text.pmclog", p.bytes);
  const size_t rows = p.procs.size() + 1;  // and the kernel's row

  const Ran def = run_dump({"--stats", path});
  ASSERT_EQ(def.status, 0) << def.err;
  EXPECT_NE(def.out.find("samples by process (top 10 of " + std::to_string(rows) + "):"),
            std::string::npos) << def.out;
  const auto top10 = section(def.out, "samples by process");
  ASSERT_EQ(top10.size(), 10u) << def.out;
  for (size_t i = 1; i < top10.size(); ++i) EXPECT_GE(first_number(top10[i - 1]), first_number(top10[i]));
  EXPECT_EQ(first_number(top10[0]), 20u);  // the shell, the busiest process
  EXPECT_NE(def.out.find("(" + std::to_string(rows - 10) + " more; --top all shows every row)"),
            std::string::npos);
  EXPECT_NE(def.out.find("processes: " + std::to_string(p.pids.size()) + "\n"), std::string::npos);
  EXPECT_NE(def.out.find("samples: " + std::to_string(p.all.user + p.all.kernel) + " (" +
                         std::to_string(p.all.user) + " user, " + std::to_string(p.all.kernel) +
                         " kernel)\n"),
            std::string::npos);

  EXPECT_EQ(section(run_dump({"--stats", "--top", "3", path}).out, "samples by process").size(), 3u);
  const Ran all = run_dump({"--stats", "--top", "all", path});
  ASSERT_EQ(all.status, 0);
  const auto every = section(all.out, "samples by process");
  ASSERT_EQ(every.size(), rows);
  EXPECT_EQ(section(run_dump({"--stats", "--top", "0", path}).out, "samples by process"), every);
  // The kernel is one row named as such; the pid nothing named is [unknown].
  int kernel_rows = 0, unknown_rows = 0;
  for (const auto& r : every) {
    if (r.find(" -1  [kernel]") != std::string::npos) {
      ++kernel_rows;
      EXPECT_EQ(first_number(r), p.kernel_pid.user + p.kernel_pid.kernel);
    }
    if (r.find(" 777  [unknown]") != std::string::npos) ++unknown_rows;
  }
  EXPECT_EQ(kernel_rows, 1);
  EXPECT_EQ(unknown_rows, 1);

  // 200 identical execs are one line with their count.
  int gzip_lines = 0;
  for (const auto& l : lines(all.out)) {
    if (l.find("/usr/bin/gzip") == std::string::npos) continue;
    ++gzip_lines;
    EXPECT_EQ(first_number(l), 200u) << l;
  }
  EXPECT_EQ(gzip_lines, 1);
  const auto cmds = section(all.out, "samples by command");
  bool gzip_row = false;
  for (const auto& r : cmds) {
    if (r.size() >= 6 && r.compare(r.size() - 6, 6, "  gzip") == 0) {
      gzip_row = true;
      EXPECT_NE(r.find(" 200  gzip"), std::string::npos) << r;  // processes column
    }
  }
  EXPECT_TRUE(gzip_row);

  // Untrusted names are escaped: no raw ESC, newline inside a row, or C1 CSI reaches the output.
  EXPECT_EQ(all.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(all.out.find("\xc2\x9b"), std::string::npos);
  EXPECT_NE(all.out.find("999  " + pmclog::escaped(kHostile.substr(5))), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("\"" + pmclog::escaped(kHostile) + "\""), std::string::npos);
  // The JSON form of the same is valid JSON holding the exact name.
  const json j = stats_json({path});
  EXPECT_EQ(json_procs(j).count({999, kHostile.substr(5)}), 1u);
}

TEST(StatsTables, NamesComeFromEveryRecordWhateverIsSelected) {
  const Profile p = build_profile();
  const std::string path = write_temp("profile-select.pmclog", p.bytes);
  // Only the samples are selected, yet processes and pmcs keep their names.
  const json j = stats_json({"--type", "callchain", path});
  EXPECT_EQ(json_procs(j), p.procs);
  EXPECT_EQ(j["execs"].size(), 0u);  // no PROCEXEC selected, none counted
  for (const auto& pmc : j["pmcs"]) {
    EXPECT_FALSE(pmc["event"].is_null()) << pmc;  // its PMCALLOCATE was read, not selected
    if (pmc["pmcid"] == kDynPmc) {
      EXPECT_EQ(pmc["name"], "CYCLES.X");
    }
  }
  // One pid: its two commands, before and after exec.
  const json k = stats_json({"--pid", "500", path});
  std::map<std::pair<int64_t, std::string>, Split> want;
  for (const auto& [key, s] : p.procs)
    if (key.first == 500) want[key] = s;
  EXPECT_EQ(want.size(), 2u);
  EXPECT_EQ(json_procs(k), want);
}

TEST(StatsTables, DamagedLogsWithKeepGoing) {
  const Profile p = build_profile();
  // The offsets of the shell's samples, from the dump's own record listing.
  std::vector<uint64_t> sh_samples;
  const std::string clean = write_temp("profile-clean.pmclog", p.bytes);
  for (const auto& l : lines(run_dump({"--format=jsonl", "--type", "callchain", "--pid", "100", clean}).out))
    sh_samples.push_back(json::parse(l)["offset"].get<uint64_t>());
  ASSERT_EQ(sh_samples.size(), 20u);
  std::string bad = p.bytes;
  bad[sh_samples[10] + 3] = '\x00';  // header magic of the 11th (little-endian: top byte last)
  const std::string path = write_temp("profile-bad.pmclog", bad);

  const json j = stats_json({"--keep-going", path}, 1);
  auto procs = json_procs(j);
  const Split sh = procs[{100, "sh"}];
  EXPECT_EQ(sh.user + sh.kernel, 19u);
  procs.erase({100, "sh"});
  auto want = p.procs;
  want.erase({100, "sh"});
  EXPECT_EQ(procs, want);  // everything after the damage is still counted and named
  ASSERT_GE(j["errors"].size(), 1u);
  EXPECT_EQ(j["errors"][0]["offset"].get<uint64_t>(), sh_samples[10]);
  EXPECT_GE(j["skipped"].size(), 1u);

  // Without --keep-going the summary covers the records before the damage.
  const json s = stats_json({path}, 1);
  EXPECT_EQ(s["samples"]["total"].get<uint64_t>(), 10u);
  const Ran t = run_dump({"--stats", "--keep-going", path});
  EXPECT_EQ(t.status, 1);
  EXPECT_NE(t.out.find("samples by process"), std::string::npos);
  EXPECT_NE(t.out.find("skipped bytes " + std::to_string(sh_samples[10])), std::string::npos) << t.out;
}

TEST(StatsTables, EveryCutOfALogSummarizesWithoutCrashing) {
  const Profile p = build_profile();
  // Cut points inside and between records, near the start, middle and end.
  for (size_t cut : {size_t{1}, size_t{13}, size_t{100}, p.bytes.size() / 2 + 1,
                     p.bytes.size() / 2 + 6, p.bytes.size() - 5, p.bytes.size() - 1}) {
    const std::string path = write_temp("cut.pmclog", p.bytes.substr(0, cut));
    const Ran t = run_dump({"--stats", "--keep-going", path});
    EXPECT_LE(t.status, 1) << "cut at " << cut << ": " << t.err;
    const Ran j = run_dump({"--stats", "--keep-going", "--format=json", path});
    EXPECT_LE(j.status, 1) << "cut at " << cut;
    EXPECT_TRUE(json::accept(j.out)) << "cut at " << cut << ": " << j.out;
  }
}

// A synthetic modern log (per-CPU buffers, so not in time order), counted from its JSON Lines.
TEST(StatsTables, SynthLogCountsMatchItsRecords) {
  const std::string path = temp_dir() + "/synth-stats.pmclog";
  const Ran w = run({PMCLOG_WRITE_EXE, "synth", "-q", "-n", "4000", "--events", "3", "--processes", "6",
                     "--seed", "11", "-o", path});
  ASSERT_EQ(w.status, 0) << w.err;
  std::map<int64_t, Split> per_pid, per_cpu;
  std::map<uint32_t, uint32_t> event_of;  // pmcid -> event code
  std::map<uint32_t, Split> per_pmc;
  std::map<std::string, uint64_t> execs;
  Split all, kernel_pid;
  for (const auto& l : lines(run_dump({"--format=jsonl", path}).out)) {
    const json r = json::parse(l);
    const std::string type = r["type"];
    if (type == "procexec") ++execs[r["path"].get<std::string>()];
    if (type == "pmcallocate" || type == "pmcallocatedyn")
      event_of[r["pmcid"].get<uint32_t>()] = r["event"].get<uint32_t>();
    if (type != "callchain") continue;
    const bool user = (r["cpuflags"].get<uint32_t>() & 1) != 0;
    auto bump = [&](Split& s) { ++(user ? s.user : s.kernel); };
    bump(all);
    const int64_t pid = static_cast<int32_t>(r["pid"].get<uint32_t>());
    bump(pid == -1 ? kernel_pid : per_pid[pid]);
    bump(per_cpu[r["cpuflags"].get<uint32_t>() >> 16]);
    bump(per_pmc[r["pmcid"].get<uint32_t>()]);
  }
  ASSERT_GT(all.user + all.kernel, 1000u);
  const json j = stats_json({path});
  EXPECT_EQ(j["samples"]["user"].get<uint64_t>(), all.user);
  EXPECT_EQ(j["samples"]["kernel"].get<uint64_t>(), all.kernel);
  EXPECT_EQ(split_of(j["kernel_pid"]), kernel_pid);
  std::map<int64_t, Split> got_pid;
  for (const auto& row : j["by_process"]["rows"]) {
    auto& s = got_pid[row["pid"].get<int64_t>()];
    const Split r = split_of(row);
    s.user += r.user;
    s.kernel += r.kernel;
    EXPECT_FALSE(row["command"].is_null()) << row;  // synth names every process it samples
  }
  EXPECT_EQ(got_pid, per_pid);
  std::map<int64_t, Split> got_cpu;
  for (const auto& row : j["by_cpu"]["rows"]) got_cpu[row["cpu"].get<int64_t>()] = split_of(row);
  EXPECT_EQ(got_cpu, per_cpu);
  std::map<uint32_t, Split> per_code, got_code;
  for (const auto& [id, s] : per_pmc) {
    auto& c = per_code[event_of.at(id)];
    c.user += s.user;
    c.kernel += s.kernel;
  }
  for (const auto& row : j["by_event"]["rows"]) {
    ASSERT_EQ(row["codes"].size(), 1u);
    got_code[row["codes"][0].get<uint32_t>()] = split_of(row);
  }
  EXPECT_EQ(got_code, per_code);
  std::map<std::string, uint64_t> got_execs;
  for (const auto& e : j["execs"]) got_execs[e["path"].get<std::string>()] = e["count"].get<uint64_t>();
  EXPECT_EQ(got_execs, execs);
}

TEST(StatsTables, TopIsAStatsOption) {
  EXPECT_EQ(run_dump({"--stats", "--top", "5", fixture("L3-64-le.pmclog")}).status, 0);
  EXPECT_EQ(run_dump({"--top", "5", fixture("L3-64-le.pmclog")}).status, 2);
  EXPECT_EQ(run_dump({"--stats", "--top", "five", fixture("L3-64-le.pmclog")}).status, 2);
  EXPECT_EQ(run_dump({"--stats", "--top", "-1", fixture("L3-64-le.pmclog")}).status, 2);
}

// --stats counts CALLCHAIN samples by shape (pid, pmc, cpuflags) in a table of 256 slots
// before its tables see them: 900 shapes in a random order force evictions at almost every
// sample, runs of one shape hit, and PROCEXECs rename pids between samples. Every process
// row, cpu, pmc and depth must still get exactly its samples, in the text as in the JSON.
TEST(StatsTables, ShapeTallyCountsEverySampleThroughEvictionsAndRenames) {
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x91; }
  std::mt19937 rng(17);
  std::map<int64_t, std::string> name;  // pid -> its command now
  std::map<std::pair<int64_t, std::string>, Split> procs;
  std::map<int64_t, Split> cpus;
  std::map<uint32_t, uint64_t> pmcs;
  std::map<uint32_t, uint64_t> depths;
  Split kernel_pid;
  uint64_t samples = 0;
  auto exec = [&](int64_t pid, const std::string& cmd) {
    auto& v = b.add(Kind::procexec);
    v[Field::pid] = static_cast<uint32_t>(pid);
    std::string path = "/bin/";  // appends: GCC 12 warns falsely on "literal" + std::string
    path += cmd;
    v.text = path;
    name[pid] = cmd;
  };
  auto cmd = [](int64_t pid, int i) {
    std::string c = "p";
    c += std::to_string(pid);
    if (i >= 0) (c += '-') += std::to_string(i);
    return c;
  };
  for (int64_t pid = 100; pid < 250; ++pid) exec(pid, cmd(pid, -1));
  for (int i = 0; i < 6000; ++i) {
    if (i % 500 == 499) {  // a rename now and then: later samples go to a new row
      const int64_t pid = 100 + static_cast<int64_t>(rng() % 150);
      exec(pid, cmd(pid, i));
    }
    // a run of 1 to 4 samples of one shape: 150 pids and the kernel x 3 cpus x user/kernel
    const int64_t pid = rng() % 20 == 0 ? -1 : 100 + static_cast<int64_t>(rng() % 150);
    const uint32_t cpu = rng() % 3;
    const bool user = rng() % 2;
    const uint32_t pmcid = 0x00000600u | cpu << 24;  // a system-mode pmc per cpu
    for (uint32_t n = 1 + rng() % 4; n > 0; --n) {
      auto& v = b.add(Kind::callchain);
      v[Field::pid] = static_cast<uint32_t>(pid);
      v[Field::pmcid] = pmcid;
      v[Field::cpuflags] = cpu << 16 | (user ? 1u : 0u);
      const uint32_t depth = 1 + rng() % 5;
      for (uint32_t k = 0; k < depth; ++k) v.pcs.push_back(0x400000 + 16 * k);
      Split& row = pid == -1 ? kernel_pid : procs[{pid, name.at(pid)}];
      for (Split* s : {&row, &cpus[cpu]}) (user ? s->user : s->kernel) += 1;
      ++pmcs[pmcid];
      ++depths[depth];
      ++samples;
    }
  }
  const std::string path = write_temp("tally.pmclog", b.finish());
  const json j = stats_json({path});
  EXPECT_EQ(json_procs(j), procs);
  EXPECT_EQ(split_of(j["kernel_pid"]), kernel_pid);
  std::map<int64_t, Split> got_cpus;
  for (const auto& row : j["by_cpu"]["rows"]) got_cpus[row["cpu"].get<int64_t>()] = split_of(row);
  EXPECT_EQ(got_cpus, cpus);
  std::map<uint32_t, uint64_t> got_pmcs;
  for (const auto& row : j["pmcs"]) got_pmcs[row["pmcid"].get<uint32_t>()] = row["samples"].get<uint64_t>();
  EXPECT_EQ(got_pmcs, pmcs);
  std::map<uint32_t, uint64_t> got_depths;
  for (const auto& [d, n] : j["callchain_depths"].items())
    got_depths[static_cast<uint32_t>(std::stoul(d))] = n.get<uint64_t>();
  EXPECT_EQ(got_depths, depths);
  EXPECT_EQ(j["samples"]["user"].get<uint64_t>() + j["samples"]["kernel"].get<uint64_t>(), samples);
  EXPECT_EQ(j["processes"].get<uint64_t>(), 150u);
  // The text summary comes from the same tables, drained the same way.
  const Ran text = run_dump({"--stats", "--top", "all", path});
  ASSERT_EQ(text.status, 0) << text.err;
  ASSERT_GT(kernel_pid.user + kernel_pid.kernel, 0u);
  EXPECT_EQ(section(text.out, "samples by process").size(), procs.size() + 1) << text.out;  // + [kernel]
  std::string total = "samples: ";
  (total += std::to_string(samples)) += " (";
  EXPECT_NE(text.out.find(total), std::string::npos) << text.out;
}
