#include "listing.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "format_rules.h"
#include "pmclog/layout.h"

namespace codec_test {

using pmclog::Field;

namespace {

bool parse_number(const std::string& s, uint64_t& out) {
  if (s.empty()) return false;
  size_t used = 0;
  try {
    out = s.rfind("0x", 0) == 0 ? std::stoull(s.substr(2), &used, 16) : std::stoull(s, &used, 10);
    if (s.rfind("0x", 0) == 0) used += 2;
  } catch (...) {
    return false;
  }
  return used == s.size();
}

// Splits `name=value` tokens; a quoted value may hold spaces and \" escapes.
std::vector<std::pair<std::string, std::string>> tokens(const std::string& line) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    const size_t eq = line.find('=', i);
    if (i >= line.size() || eq == std::string::npos) break;
    std::string name = line.substr(i, eq - i), value;
    i = eq + 1;
    if (i < line.size() && line[i] == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        value += line[i];
      }
      ++i;  // closing quote
    } else {
      const size_t sp = line.find(' ', i);
      value = line.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
      i = sp == std::string::npos ? line.size() : sp;
    }
    out.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

// Listing names of scalar fields (fixtures/golden/README.md), mapped by hand.
const std::map<std::string, Field>& scalar_names() {
  static const std::map<std::string, Field> m = {
      {"pid", Field::pid},           {"tid", Field::tid},
      {"pmcid", Field::pmcid},       {"cpuflags", Field::cpuflags},
      {"event", Field::event},       {"flags", Field::flags},
      {"rate", Field::rate},         {"value", Field::value},
      {"version", Field::version},   {"arch", Field::arch},
      {"tsc_freq", Field::tsc_freq}, {"init_ts_sec", Field::init_ts_sec},
      {"init_ts_nsec", Field::init_ts_nsec}, {"oldpid", Field::oldpid},
      {"newpid", Field::newpid},     {"userdata", Field::userdata},
      {"start", Field::start},       {"end", Field::end},
      {"entryaddr", Field::entryaddr}, {"dynaddr", Field::dynaddr},
      {"maptype", Field::maptype},
  };
  return m;
}

bool is_text_name(const std::string& n) {
  return n == "path" || n == "evname" || n == "cpuid" || n == "tdname" || n == "pcomm";
}

}  // namespace

Listing parse_listing(const std::string& text) {
  Listing L;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  // A note such as "rec=16 passed reload count (rate) 0x..." states a value the rec line
  // omits (modern PMCALLOCATEDYN, format.md §11); it is checked like a listed field.
  // (No regular expressions: g++-12 warns inside <regex> under the sanitizers.)
  std::map<int, std::string> noted_rate;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("#", 0) == 0) {
      int rec = 0;
      char hexval[40] = {0};
      unsigned long long nrec = 0, nbytes = 0;
      const size_t note = line.find("rec=");
      if (note != std::string::npos &&
          std::sscanf(line.c_str() + note, "rec=%d passed reload count (rate) %39s", &rec, hexval) == 2)
        noted_rate[rec] = hexval;
      if (std::sscanf(line.c_str(), "# total: %llu records, %llu bytes", &nrec, &nbytes) == 2) {
        L.total_records = nrec;
        L.total_bytes = nbytes;
      }
      continue;
    }
    if (line.empty()) continue;
    if (line.rfind("rec=", 0) != 0) {
      L.error = "line " + std::to_string(line_no) + ": not a rec= line";
      return L;
    }
    ListedRecord r;
    r.line = line_no;
    for (auto& [name, value] : tokens(line)) {
      uint64_t n = 0;
      const bool num = parse_number(value, n);
      if (name == "rec" && num) r.rec = static_cast<int>(n);
      else if (name == "off" && num) r.off = n;
      else if (name == "len" && num) r.len = static_cast<uint32_t>(n);
      else if (name == "ts_sec" && num) r.ts_sec = static_cast<uint32_t>(n);
      else if (name == "ts_nsec" && num) r.ts_nsec = static_cast<uint32_t>(n);
      else if (name == "tsc" && num) r.tsc = n;
      else if (name == "type") {
        const size_t paren = value.find('(');
        uint64_t code = 0;
        if (paren == std::string::npos || value.back() != ')' ||
            !parse_number(value.substr(paren + 1, value.size() - paren - 2), code)) {
          L.error = "line " + std::to_string(line_no) + ": bad type " + value;
          return L;
        }
        r.type_name = value.substr(0, paren);
        r.type_code = static_cast<int>(code);
      } else {
        r.fields.emplace_back(name, value);
      }
    }
    if (r.rec < 0 || r.type_code < 0) {
      L.error = "line " + std::to_string(line_no) + ": rec or type missing";
      return L;
    }
    L.records.push_back(std::move(r));
  }
  for (auto& r : L.records) {
    auto it = noted_rate.find(r.rec);
    if (it != noted_rate.end()) r.fields.emplace_back("rate", it->second);
  }
  return L;
}

::testing::AssertionResult matches_listing(const ListedRecord& want, const pmclog::Record& got,
                                           const pmclog::Abi& abi) {
  std::ostringstream bad;
  const auto where = [&] { return "listing line " + std::to_string(want.line) + " (rec=" +
                                  std::to_string(want.rec) + "): "; };
  if (got.offset != want.off) bad << where() << "offset " << got.offset << " != " << want.off << "\n";
  if (got.header.length != want.len || got.raw.size() != want.len)
    bad << where() << "length " << got.header.length << " (raw " << got.raw.size() << ") != " << want.len << "\n";
  if (got.header.type != want.type_code)
    bad << where() << "type code " << int(got.header.type) << " != " << want.type_code << "\n";
  if (want.type_name != format_name(got.kind))
    bad << where() << "kind " << format_name(got.kind) << " != " << want.type_name << "\n";
  if (want.ts_sec && got.header.ts_sec != *want.ts_sec)
    bad << where() << "ts_sec " << got.header.ts_sec << " != " << *want.ts_sec << "\n";
  if (want.ts_nsec && got.header.ts_nsec != *want.ts_nsec)
    bad << where() << "ts_nsec " << got.header.ts_nsec << " != " << *want.ts_nsec << "\n";
  if (want.tsc && got.header.tsc != *want.tsc)
    bad << where() << std::hex << "tsc 0x" << got.header.tsc << " != 0x" << *want.tsc << std::dec << "\n";
  if (is_legacy(abi.generation) != want.ts_sec.has_value())
    bad << where() << "header time style does not fit the ABI\n";

  for (const auto& [name, value] : want.fields) {
    if (is_text_name(name)) {
      if (name == "evname" && got.kind == Kind::pmcallocate) continue;  // libpmc's table name
      if (got.text != value)
        bad << where() << name << " \"" << got.text << "\" != \"" << value << "\"\n";
      continue;
    }
    if (name == "pc" && !value.empty() && value[0] == '[') {
      std::vector<uint64_t> pcs;
      std::stringstream ss(value.substr(1, value.size() - 2));
      std::string item;
      while (std::getline(ss, item, ',')) {
        uint64_t n = 0;
        if (!parse_number(item, n)) bad << where() << "bad pc " << item << "\n";
        pcs.push_back(n);
      }
      std::vector<uint64_t> have(got.pcs.begin(), got.pcs.end());
      if (have != pcs) bad << where() << "pc list differs (" << have.size() << " vs " << pcs.size() << " frames)\n";
      continue;
    }
    uint64_t n = 0;
    if (!parse_number(value, n)) {
      bad << where() << "unparsable " << name << "=" << value << "\n";
      continue;
    }
    uint64_t have = 0;
    if (name == "cpu") have = got.cpu();
    else if (name == "npc") have = got.pcs.size();
    else if (name == "usermode" && got.kind == Kind::callchain) have = got.user_callchain() ? 1 : 0;
    else if (name == "usermode" || name == "pc") {
      const Field f = name == "pc" ? Field::pc : Field::usermode;
      if (!got.has(f)) bad << where() << "record has no field " << name << "\n";
      have = got[f];
    } else {
      auto it = scalar_names().find(name);
      if (it == scalar_names().end()) {
        bad << where() << "unknown listing field " << name << "\n";
        continue;
      }
      if (!got.has(it->second)) bad << where() << "record has no field " << name << "\n";
      have = got[it->second];
    }
    if (have != n) bad << where() << std::hex << name << " 0x" << have << " != 0x" << n << std::dec << "\n";
  }
  if (bad.str().empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad.str();
}

}  // namespace codec_test
