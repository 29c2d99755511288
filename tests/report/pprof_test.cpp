// --format pprof, read back by two readers that share no code with the tool: protoc
// --decode_raw (the published field numbers of google/pprof's profile.proto, written here
// again) and pprof/pprof_totals.py (gzip plus a hand wire-format reader), whose per-function
// totals must equal top's columns, on the golden log, a recorded workload and a fleet of ten.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "report_support.h"

namespace {

using reptest::hex;

const std::string kLeaf = "hotspot::leaf_hot(unsigned long)";
const std::string kTotals = std::string(REPORT_TEST_DIR) + "/pprof/pprof_totals.py";

reptest::Ran report(std::vector<std::string> args) {
  args.insert(args.begin(), REPORT_EXE);
  return reptest::run(args);
}

// ---- protoc --decode_raw's text, as a tree -------------------------------------------------

struct Node;
struct Field {
  int num = 0;
  std::string text;           // a scalar as printed (number, 0x... fixed, "quoted bytes")
  std::shared_ptr<Node> msg;  // when decode_raw read the bytes as a message
};
struct Node {
  std::vector<Field> fields;
  std::vector<const Field*> all(int num) const {
    std::vector<const Field*> out;
    for (const auto& f : fields)
      if (f.num == num) out.push_back(&f);
    return out;
  }
  const Field* one(int num) const {
    auto v = all(num);
    return v.empty() ? nullptr : v.front();
  }
};

std::string unescape(const std::string& q) {  // "..." with C escapes (octal, \n, \", ...)
  std::string out;
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    if (q[i] != '\\') {
      out += q[i];
      continue;
    }
    const char c = q[++i];
    if (c >= '0' && c <= '7') {
      int v = 0, n = 0;
      while (n < 3 && i < q.size() - 1 && q[i] >= '0' && q[i] <= '7') v = v * 8 + (q[i++] - '0'), ++n;
      --i;
      out += static_cast<char>(v);
    } else if (c == 'x') {
      int v = 0;
      while (i + 1 < q.size() - 1 && std::isxdigit(static_cast<unsigned char>(q[i + 1])))
        v = v * 16 + std::stoi(std::string(1, q[++i]), nullptr, 16);
      out += static_cast<char>(v);
    } else {
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
    }
  }
  return out;
}

std::shared_ptr<Node> parse_raw(const std::string& text) {
  std::vector<std::shared_ptr<Node>> stack{std::make_shared<Node>()};
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t b = line.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line == "}") {
      stack.pop_back();
      continue;
    }
    Field f;
    f.num = std::stoi(line);
    if (line.back() == '{') {
      f.msg = std::make_shared<Node>();
      stack.back()->fields.push_back(f);
      stack.push_back(f.msg);
    } else {
      f.text = line.substr(line.find(": ") + 2);
      stack.back()->fields.push_back(f);
    }
  }
  return stack.front();
}

void put_varint(std::string& out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) out += static_cast<char>(v | 0x80);
  out += static_cast<char>(v);
}

// The bytes of a length-delimited field: decode_raw prints a message when the bytes parse as
// one (packed numbers and strings may), so such a field is encoded back.
std::string bytes_of(const Field& f);
std::string encode(const Node& n) {
  std::string out;
  for (const auto& f : n.fields) {
    if (f.msg || f.text[0] == '"') {
      const std::string b = bytes_of(f);
      put_varint(out, uint64_t(f.num) << 3 | 2);
      put_varint(out, b.size());
      out += b;
    } else if (f.text.rfind("0x", 0) == 0) {  // fixed64 (16 digits) or fixed32
      const bool wide = f.text.size() > 10;
      put_varint(out, uint64_t(f.num) << 3 | (wide ? 1 : 5));
      uint64_t v = std::stoull(f.text, nullptr, 16);
      for (int i = 0; i < (wide ? 8 : 4); ++i, v >>= 8) out += static_cast<char>(v & 0xFF);
    } else {
      put_varint(out, uint64_t(f.num) << 3);
      put_varint(out, std::stoull(f.text));
    }
  }
  return out;
}
std::string bytes_of(const Field& f) { return f.msg ? encode(*f.msg) : unescape(f.text); }

// A repeated integer field, packed or not.
std::vector<uint64_t> numbers(const Node& n, int num) {
  std::vector<uint64_t> out;
  for (const Field* f : n.all(num)) {
    if (!f->msg && f->text[0] != '"') {
      out.push_back(std::stoull(f->text));
      continue;
    }
    const std::string b = bytes_of(*f);
    uint64_t v = 0;
    int shift = 0;
    for (char c : b) {
      v |= uint64_t(static_cast<uint8_t>(c) & 0x7F) << shift;
      shift += 7;
      if ((static_cast<uint8_t>(c) & 0x80) == 0) {
        out.push_back(v);
        v = 0;
        shift = 0;
      }
    }
  }
  return out;
}
uint64_t number(const Node& n, int num) {  // proto3: absent is 0
  const auto v = numbers(n, num);
  return v.empty() ? 0 : v.back();
}

// A decoded profile, by pprof's field numbers.
struct Raw {
  std::shared_ptr<Node> root;
  std::vector<std::string> strings;                 // 6
  std::map<uint64_t, const Node*> locations;        // 4, by id (1)
  std::map<uint64_t, const Node*> functions;        // 5
  std::map<uint64_t, const Node*> mappings;         // 3
  const std::string& s(uint64_t i) const { return strings.at(i); }
  // The first (innermost) line's function name of a location.
  std::string function_of(uint64_t location) const {
    const Node* loc = locations.at(location);
    const Field* line = loc->one(4);
    if (line == nullptr) return "";
    return s(number(*functions.at(number(*line->msg, 1)), 2));
  }
};

std::string gunzip(const std::string& file) {
  const auto r = reptest::run({"/bin/gzip", "-dc", file});
  EXPECT_EQ(r.status, 0) << "gzip -dc " << file << ": " << r.err;
  return r.out;
}

Raw decode_raw(const std::string& file) {
  Raw raw;
  const std::string proto = gunzip(file);
  const auto r = reptest::run({PROTOC_EXE, "--decode_raw"}, proto);
  EXPECT_EQ(r.status, 0) << r.err;
  raw.root = parse_raw(r.out);
  for (const Field* f : raw.root->all(6)) raw.strings.push_back(bytes_of(*f));
  const auto index = [&](int num, std::map<uint64_t, const Node*>& by_id) {
    for (const Field* f : raw.root->all(num)) {
      EXPECT_TRUE(f->msg) << "field " << num << " is not a message";
      if (!f->msg) continue;
      const uint64_t id = number(*f->msg, 1);
      EXPECT_NE(id, 0u) << "field " << num << ": id 0";
      EXPECT_TRUE(by_id.emplace(id, f->msg.get()).second) << "field " << num << ": id " << id << " twice";
    }
  };
  index(4, raw.locations);
  index(5, raw.functions);
  index(3, raw.mappings);
  return raw;
}

// ---- pprof_totals.py's lines ----------------------------------------------------------------

struct Totals {
  std::vector<std::string> types, labels, mappings;
  std::map<std::string, uint64_t> samples;                                // event
  std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>> funcs;  // (event, name)
  std::map<std::string, uint64_t> bylabel;  // "key\tvalue\tevent"
};

std::vector<std::string> split_tabs(const std::string& l) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(l);
  while (std::getline(in, cell, '\t')) out.push_back(cell);
  return out;
}

Totals totals(const std::vector<std::string>& files) {
  Totals t;
  std::vector<std::string> argv{PYTHON_EXE, kTotals};
  argv.insert(argv.end(), files.begin(), files.end());
  const auto r = reptest::run(argv);
  EXPECT_EQ(r.status, 0) << "pprof_totals.py: " << r.err;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    const auto c = split_tabs(line);
    if (c[0] == "type") t.types.push_back(c[1] + "/" + c[2]);
    else if (c[0] == "label") t.labels.push_back(c[1] + ":" + c[2]);
    else if (c[0] == "samples") t.samples[c[1]] = std::stoull(c[2]);
    else if (c[0] == "func") t.funcs[{c[1], c[4]}] = {std::stoull(c[2]), std::stoull(c[3])};
    else if (c[0] == "bylabel") t.bylabel[c[1] + "\t" + c[2] + "\t" + c[3]] = std::stoull(c[4]);
    else if (c[0] == "mapping") t.mappings.push_back(line);
  }
  return t;
}

// top --by symbol's rows of a run, as (event, symbol) -> (self, total).
std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>> top_by_symbol(
    std::vector<std::string> args) {
  args.insert(args.begin(), {"--by", "symbol"});
  const auto r = report(args);
  EXPECT_EQ(r.status, 0) << r.err;
  std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>> out;
  for (const auto& row : reptest::parse_top(r.out)) out[{row.event, row.symbol()}] = {row.self, row.total};
  EXPECT_FALSE(out.empty()) << r.out;
  return out;
}

void require_readers() {
  ASSERT_STRNE(PROTOC_EXE, "") << "protoc is missing (apt-get install protobuf-compiler)";
  ASSERT_STRNE(PYTHON_EXE, "") << "python3 is missing";
}

// ---- the golden log: every field checked against the records (fixtures/report/README.md) --

TEST(Pprof, GoldenLogFieldsByDecodeRaw) {
  ASSERT_NO_FATAL_FAILURE(require_readers());
  reptest::ScratchDir dir;
  const std::string log = std::string(REPORT_FIXTURES) + "/golden.pmclog";
  const std::string out = dir.file("golden.pb.gz");
  reptest::make_dirs(dir.file("empty"));  // a sysroot without objects
  const auto r = report({"--sysroot", dir.file("empty"), "--format", "pprof", "-o", out, log});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string bytes = reptest::slurp(out);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(bytes.substr(0, 2), "\x1f\x8b") << "not gzip";
  const Raw p = decode_raw(out);
  ASSERT_FALSE(p.strings.empty());
  EXPECT_EQ(p.strings[0], "");
  // One sample type: the event, counted.
  const auto types = p.root->all(1);
  ASSERT_EQ(types.size(), 1u);
  EXPECT_EQ(p.s(number(*types[0]->msg, 1)), "cpu-clock");
  EXPECT_EQ(p.s(number(*types[0]->msg, 2)), "count");
  EXPECT_EQ(p.s(number(*p.root, 14)), "cpu-clock");  // default_sample_type
  // The period: the PMCALLOCATEDYN's rate (golden.jsonl: 1000 events per sample).
  EXPECT_EQ(number(*p.root, 12), 1000u);
  ASSERT_EQ(p.root->all(11).size(), 1u);
  EXPECT_EQ(p.s(number(*p.root->all(11)[0]->msg, 1)), "cpu-clock");
  // Samples: leaf first, labels, one value each; 6 in all.
  const std::set<std::string> leaves{"sh+0x120", "libc.so.7+0x10", "libc.so.7+0x30", "yes+0x200",
                                     "[kernel] 0xffffffff80201000"};
  uint64_t n = 0;
  std::set<uint64_t> pids;
  std::map<std::string, uint64_t> stacks;
  for (const Field* f : p.root->all(2)) {
    const Node& smp = *f->msg;
    const auto values = numbers(smp, 2);
    ASSERT_EQ(values.size(), 1u);
    n += values[0];
    const auto locs = numbers(smp, 1);
    ASSERT_FALSE(locs.empty());
    std::string stack;
    for (uint64_t id : locs) {
      ASSERT_TRUE(p.locations.count(id)) << "sample names location " << id << ", not there";
      if (!stack.empty()) stack += ';';
      stack += p.function_of(id);
    }
    stacks[stack] += values[0];
    EXPECT_TRUE(leaves.count(p.function_of(locs[0]))) << p.function_of(locs[0]);
    std::map<std::string, std::string> labels;
    for (const Field* l : smp.all(3)) {
      const Node& lab = *l->msg;
      const std::string key = p.s(number(lab, 1));
      labels[key] = lab.one(2) ? p.s(number(lab, 2)) : std::to_string(number(lab, 3));
      // A number has a unit (its key), without which pprof drops the label of a 0 (cpu 0).
      if (!lab.one(2)) {
        EXPECT_EQ(p.s(number(lab, 4)), key) << "num_unit of " << key;
      }
    }
    EXPECT_EQ(labels.size(), 5u);
    for (const char* k : {"pid", "tid", "comm", "cpu", "file"}) EXPECT_TRUE(labels.count(k)) << k;
    EXPECT_EQ(labels["file"], log);
    EXPECT_TRUE(labels["cpu"] == "0" || labels["cpu"] == "1") << labels["cpu"];
    pids.insert(std::stoull(labels["pid"]));
    EXPECT_EQ(std::stoull(labels["tid"]), 100000 + std::stoull(labels["pid"]));
    EXPECT_EQ(labels["comm"], labels["pid"] == "43" && p.function_of(locs[0]) == "yes+0x200" ? "yes" : "sh");
  }
  EXPECT_EQ(n, 6u);
  EXPECT_EQ(pids, (std::set<uint64_t>{42, 43}));
  // Leaf first: the README's stacks, read from the leaf.
  EXPECT_EQ(stacks["sh+0x120;sh+0x450"], 1u);
  EXPECT_EQ(stacks["libc.so.7+0x10;sh+0x450"], 2u);
  EXPECT_EQ(stacks["libc.so.7+0x30;sh+0x460"], 1u);
  EXPECT_EQ(stacks["yes+0x200;0x500"], 1u);
  EXPECT_EQ(stacks["[kernel] 0xffffffff80201000;[kernel] 0xffffffff80200500"], 1u);
  // Mappings: one per object, by the log's path; locations inside them at object addresses.
  std::map<std::string, const Node*> maps;
  for (const auto& [id, m] : p.mappings) maps[p.s(number(*m, 5))] = m;
  ASSERT_EQ(maps.size(), 4u);
  for (const char* path : {"/bin/sh", "/lib/libc.so.7", "/usr/bin/yes", "/boot/kernel/kernel"})
    EXPECT_TRUE(maps.count(path)) << path;
  EXPECT_EQ(number(*maps["/boot/kernel/kernel"], 2), 0xffffffff80200000u);  // run-time addresses
  EXPECT_EQ(p.s(number(*maps["/bin/sh"], 6)), "");  // no file, no build id
  // has_functions although nothing resolved: every location names a function (top's label),
  // and pprof would otherwise look for /bin/sh on the machine that reads the profile.
  EXPECT_EQ(number(*maps["/bin/sh"], 7), 1u);
  EXPECT_EQ(number(*maps["/bin/sh"], 9), 0u);  // has_line_numbers
  bool outside = false;
  for (const auto& [id, loc] : p.locations) {
    const uint64_t addr = number(*loc, 3), mid = number(*loc, 2);
    const std::string name = p.function_of(id);
    if (name == "0x500") {
      EXPECT_EQ(mid, 0u) << "0x500 is outside every mapping";
      EXPECT_EQ(addr, 0x500u);
      outside = true;
      continue;
    }
    ASSERT_TRUE(p.mappings.count(mid)) << name;
    const Node& m = *p.mappings.at(mid);
    EXPECT_GE(addr, number(m, 2)) << name;
    EXPECT_LT(addr, number(m, 3)) << name;
    if (name.rfind("sh+", 0) == 0) {
      EXPECT_EQ(p.s(number(m, 5)), "/bin/sh");
      EXPECT_EQ(hex(addr), name.substr(3));  // the offset in the object is the address
    }
    if (name.rfind("[kernel] ", 0) == 0) {
      EXPECT_EQ(hex(addr), name.substr(9));
    }
  }
  EXPECT_TRUE(outside);
}

TEST(Pprof, GoldenLogTotalsEqualTop) {
  ASSERT_NO_FATAL_FAILURE(require_readers());
  reptest::ScratchDir dir;
  const std::string log = std::string(REPORT_FIXTURES) + "/golden.pmclog";
  const std::string out = dir.file("g.pb.gz");
  reptest::make_dirs(dir.file("empty"));  // a sysroot without objects
  const std::vector<std::string> common{"--sysroot", dir.file("empty")};
  auto args = common;
  args.insert(args.end(), {"--format", "pprof", "-o", out, log});
  ASSERT_EQ(report(args).status, 0);
  args = common;
  args.push_back(log);
  const Totals t = totals({out});
  EXPECT_EQ(t.funcs, top_by_symbol(args));
  EXPECT_EQ(t.types, std::vector<std::string>{"cpu-clock/count"});
  EXPECT_EQ(t.labels, (std::vector<std::string>{"comm:str", "cpu:num", "file:str", "pid:num", "tid:num"}));
}

// ---- a recorded workload ---------------------------------------------------------------------

// readelf's first executable PT_LOAD: (page address, file offset of that page).
std::pair<uint64_t, uint64_t> exec_segment(const std::string& binary) {
  const auto r = reptest::run({"/usr/bin/readelf", "-lW", binary});
  std::istringstream in(r.out);
  std::string line;
  uint64_t best = UINT64_MAX, offset = 0;
  while (std::getline(in, line)) {
    std::istringstream w(line);
    std::string type, off, vaddr;
    w >> type >> off >> vaddr;
    if (type != "LOAD" || line.find(" R E ") == std::string::npos) continue;
    const uint64_t v = std::stoull(vaddr, nullptr, 16);
    if (v < best) {
      best = v;
      offset = std::stoull(off, nullptr, 16) - (v & 0xFFF);
    }
  }
  return {best & ~uint64_t{0xFFF}, offset};
}

TEST(Pprof, RecordedWorkloadHotFunctionAndMapping) {
  ASSERT_NO_FATAL_FAILURE(require_readers());
  reptest::ScratchDir dir;
  const std::string log = reptest::hot_recording(dir);
  const std::string out = dir.file("hot.pb.gz");
  ASSERT_EQ(report({"--format", "pprof", "-o", out, log}).status, 0);
  const Totals t = totals({out});
  // The hot function is the top self function, and every function matches top.
  std::string hottest;
  uint64_t most = 0;
  for (const auto& [key, v] : t.funcs)
    if (key.first == "cpu-clock" && v.first > most) most = v.first, hottest = key.second;
  EXPECT_EQ(hottest, kLeaf);
  ASSERT_TRUE(t.samples.count("cpu-clock"));
  EXPECT_GT(most * 2, t.samples.at("cpu-clock"));  // most of them (recorded_test: > 80%)
  EXPECT_EQ(t.funcs, top_by_symbol({log}));
  // The workload's mapping: its executable segment, file offset and build id (readelf).
  const Raw p = decode_raw(out);
  const Node* m = nullptr;
  for (const auto& [id, mm] : p.mappings)
    if (p.s(number(*mm, 5)) == WORKLOAD_HOT) m = mm;
  ASSERT_NE(m, nullptr) << "no mapping named " << WORKLOAD_HOT;
  const auto [page, offset] = exec_segment(WORKLOAD_HOT);
  EXPECT_EQ(number(*m, 2), page);
  EXPECT_EQ(number(*m, 4), offset);
  EXPECT_GT(number(*m, 3), page);
  EXPECT_EQ(p.s(number(*m, 6)), reptest::build_id(WORKLOAD_HOT));
  const uint64_t leaf_at = reptest::symbol_address(WORKLOAD_HOT, "_ZN7hotspot8leaf_hotEm");
  bool leaf_seen = false;
  for (const auto& [id, loc] : p.locations) {
    if (p.function_of(id) != kLeaf) continue;
    leaf_seen = true;
    EXPECT_GE(number(*loc, 3), leaf_at);  // object addresses, as nm gives them
    EXPECT_LT(number(*loc, 3), leaf_at + 4096);
  }
  EXPECT_TRUE(leaf_seen);
  // The mapping of the main binary comes first (pprof's mapping[0]).
  const Field* first = p.root->one(3);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(p.s(number(*first->msg, 5)), WORKLOAD_HOT);

  // --lines --inline: the leaf's inlined helper is line[0], the function it is in after it,
  // each with its source file and a line number.
  const std::string lines = dir.file("lines.pb.gz");
  ASSERT_EQ(report({"--lines", "--inline", "--format", "pprof", "-o", lines, log}).status, 0);
  const Raw q = decode_raw(lines);
  bool inlined_seen = false;
  for (const auto& [id, loc] : q.locations) {
    const auto ls = loc->all(4);
    if (ls.size() < 2) continue;
    const Node& inner = *ls.front()->msg;
    const Node& outer = *ls.back()->msg;
    const Node& fi = *q.functions.at(number(inner, 1));
    const Node& fo = *q.functions.at(number(outer, 1));
    if (q.s(number(fo, 2)) != kLeaf) continue;
    inlined_seen = true;
    EXPECT_EQ(q.s(number(fi, 2)), "hotspot::mix(unsigned long, unsigned long)");
    EXPECT_NE(q.s(number(fi, 4)).find("hot_chain.cpp"), std::string::npos);
    EXPECT_GT(number(inner, 2), 0u);
    EXPECT_GT(number(outer, 2), 0u);
  }
  EXPECT_TRUE(inlined_seen) << "no location of " << kLeaf << " with an inlined line";
}

// ---- the fleet: ten logs, one merged profile and ten per-log ones ----------------------------

std::string fleet_sample(uint32_t pid, uint32_t tid, uint32_t cpu, const std::vector<uint64_t>& pcs,
                         bool user = true) {
  std::string s = R"({"type":"callchain","pid":)" + std::to_string(pid) + R"(,"tid":)" +
                  std::to_string(tid) + R"(,"pmcid":4294053632,"cpu":)" + std::to_string(cpu) +
                  R"(,"usermode":)" + (user ? "1" : "0") + R"(,"pcs_hex":[)";
  for (size_t i = 0; i < pcs.size(); ++i) s += (i ? ",\"" : "\"") + hex(pcs[i]) + "\"";
  return s + "]}";
}

TEST(Pprof, FleetMergedProfileIsTheSumOfTheTen) {
  ASSERT_NO_FATAL_FAILURE(require_readers());
  reptest::ScratchDir dir;
  // The fake FreeBSD sysroot of the synthetic tests: names for some frames, not all.
  const std::string root = dir.file("root");
  reptest::copy_as_freebsd_elf(FAKE_LIBC, root + "/lib/libc.so.7");
  reptest::copy_as_freebsd_elf(FAKE_PROG, root + "/usr/bin/fakeprog");
  constexpr uint64_t kLib = 0x800200000;
  const uint64_t lib_exec = reptest::exec_segment_page(FAKE_LIBC);
  const uint64_t memcpy_ = kLib + reptest::symbol_address(FAKE_LIBC, "fbsd_memcpy");
  const uint64_t write_ = kLib + reptest::symbol_address(FAKE_LIBC, "fbsd_write");
  const uint64_t work = reptest::symbol_address(FAKE_PROG, "fakeprog_work");
  const uint64_t child = reptest::symbol_address(FAKE_PROG, "fakeprog_child_work");
  ASSERT_NE(work, 0u);
  std::vector<std::string> logs;
  for (uint32_t i = 0; i < 10; ++i) {
    const uint32_t pid = 300 + i;
    std::vector<std::string> l{
        R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,)"
        R"("version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"fleet","tsc":1000000000})",
        R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu-clock"})",
        R"({"type":"map-in","pid":4294967295,"start_hex":"0xffffffff80200000","path":"/boot/kernel/kernel"})",
        R"({"type":"procexec","pid":)" + std::to_string(pid) +
            R"(,"pmcid":4294053632,"entryaddr":0,"dynaddr":0,"path":"/usr/bin/fakeprog"})",
        R"({"type":"map-in","pid":)" + std::to_string(pid) + R"(,"start_hex":")" +
            hex(kLib + lib_exec) + R"(","path":"/lib/libc.so.7"})",
        // A thread name with an escape character: labelled as top shows it (escaped).
        R"({"type":"thr-create","tid":)" + std::to_string(pid * 10 + 1) + R"(,"pid":)" +
            std::to_string(pid) + R"(,"flags":0,"tdname":"w\u001b[1m"})"};
    // Different stacks and weights per host; some frames stay unresolved.
    for (uint32_t k = 0; k <= i; ++k) l.push_back(fleet_sample(pid, pid * 10, k % 4, {memcpy_ + 1, work + 2}));
    for (uint32_t k = 0; k < i % 3; ++k) l.push_back(fleet_sample(pid, pid * 10 + 1, 1, {write_ + 1, child + 2, work + 3}));
    if (i % 2 == 0) l.push_back(fleet_sample(pid, pid * 10, 2, {0x500 + i, work + 2}));
    if (i % 4 == 1)
      l.push_back(fleet_sample(pid, pid * 10, 3, {0xffffffff80201000 + 16 * i, memcpy_ + 1, work + 2}, false));
    l.push_back(R"({"type":"closelog"})");
    logs.push_back(reptest::write_log(dir, "host" + std::to_string(i) + ".pmclog", l));
  }
  std::vector<std::string> args{"--sysroot", root, "--format", "pprof", "-o", dir.file("fleet.pb.gz")};
  args.insert(args.end(), logs.begin(), logs.end());
  auto r = report(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string folder = dir.file("each");
  args = {"--sysroot", root, "--by-file", "--format", "pprof", "-o", folder};
  args.insert(args.end(), logs.begin(), logs.end());
  r = report(args);
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> each;
  for (uint32_t i = 0; i < 10; ++i) {
    each.push_back(folder + "/host" + std::to_string(i) + ".pmclog.pb.gz");
    struct stat st;
    ASSERT_EQ(stat(each.back().c_str(), &st), 0) << each.back();
    // Each per-log profile holds its own host only.
    const Totals one = totals({each.back()});
    std::set<std::string> pids, files;
    for (const auto& [k, n] : one.bylabel) {
      const auto c = split_tabs(k);
      if (c[0] == "pid") pids.insert(c[1]);
      if (c[0] == "file") files.insert(c[1]);
    }
    EXPECT_EQ(pids, std::set<std::string>{std::to_string(300 + i)});
    EXPECT_EQ(files, std::set<std::string>{logs[i]});
  }
  const Totals merged = totals({dir.file("fleet.pb.gz")});
  const Totals sum = totals(each);
  ASSERT_FALSE(merged.funcs.empty());
  EXPECT_EQ(merged.funcs, sum.funcs);
  EXPECT_EQ(merged.samples, sum.samples);
  EXPECT_EQ(merged.bylabel, sum.bylabel);  // per host (file, pid) and command
  uint64_t expected = 0;
  for (uint32_t i = 0; i < 10; ++i) expected += (i + 1) + i % 3 + (i % 2 == 0) + (i % 4 == 1);
  EXPECT_EQ(merged.samples.at("cpu-clock"), expected);
  EXPECT_EQ(merged.funcs.at({"cpu-clock", "fakeprog_work"}).second, expected);
  EXPECT_EQ(merged.funcs.at({"cpu-clock", "fbsd_memcpy"}).first, 55u);  // 1 + 2 + ... + 10
  // The named thread's samples: i % 3 of them in host i.
  const std::string named = "thread\tw\\e[1m\tcpu-clock";
  ASSERT_TRUE(merged.bylabel.count(named)) << "no thread label w\\e[1m";
  EXPECT_EQ(merged.bylabel.at(named), 9u);
  EXPECT_NE(std::find(merged.labels.begin(), merged.labels.end(), "thread:str"), merged.labels.end());
  // And the merged profile agrees with top over the ten logs.
  args = {"--sysroot", root};
  args.insert(args.end(), logs.begin(), logs.end());
  EXPECT_EQ(merged.funcs, top_by_symbol(args));
}

// ---- usage ----------------------------------------------------------------------------------

TEST(Pprof, ByFileNeedsAFolder) {
  reptest::ScratchDir dir;
  const std::string log = std::string(REPORT_FIXTURES) + "/golden.pmclog";
  auto r = report({"--by-file", "--format", "pprof", log});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("give -o FOLDER"), std::string::npos) << r.err;
  const std::string file = dir.file("plain");
  reptest::write_file(file, "x");
  r = report({"--by-file", "--format", "pprof", "-o", file, log});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not a folder"), std::string::npos) << r.err;
  EXPECT_EQ(reptest::slurp(file), "x");  // left alone
}

}  // namespace
