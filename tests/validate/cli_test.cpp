// The tool as CI runs it: a subprocess with options, checked for exit status, line syntax and
// the JSON / GitHub / JUnit output formats.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "log_builder.h"
#include "rules.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace validate_test {
namespace {

namespace fs = std::filesystem;
using pmclog_test::Ran;
using pmclog_test::slurp;
using pmclog_test::words;

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

class Cli : public ::testing::Test {
 protected:
  fs::path write(const std::string& name, const std::vector<uint8_t>& bytes) {
    const fs::path p = dir_ / name;
    pmclog_test::write_file(p, bytes);
    return p;
  }
  fs::path valid() {
    LogBuilder b(l3());
    build_valid(b);
    return write("valid.pmclog", b.bytes());
  }
  fs::path with_warning() {  // a DROPNOTIFY: warning only
    LogBuilder b(m9());
    build_valid(b, false);
    b.simple(Kind::dropnotify);
    b.simple(Kind::closelog);
    return write("warning.pmclog", b.bytes());
  }
  fs::path with_errors() {  // bad magic + unknown type + a truncated tail
    LogBuilder b(l3());
    const auto x = build_valid(b);
    b.set_magic(x.userdata, 0x11);
    b.set_type(x.sysexit, 60);
    b.truncate(4);
    return write("errors.pmclog", b.bytes());
  }

  // Runs the tool with `args`, standard input from `stdin_from` (else /dev/null).
  Ran run(const std::vector<std::string>& args, const std::string& stdin_from = "") {
    pmclog_test::RunOptions o;
    o.stdin_path = stdin_from;
    return pmclog_test::run(pmclog_test::concat({{PMCLOG_VALIDATE_EXE}, args}), o);
  }

  pmclog_test::ScratchDir scratch_;
  const fs::path dir_ = scratch_.path();
};

// FILE:0xHEX (DEC): error|warning: MESSAGE [rule-id], parsed by hand (std::regex trips a
// g++-12 -Wmaybe-uninitialized false positive in sanitizer builds).
struct Line {
  std::string file, severity, message, rule;
  uint64_t hex = 0, dec = 0;
};

bool is_id(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

bool parse_line(const std::string& l, Line& out) {
  const size_t at = l.find(":0x");
  if (at == std::string::npos || at == 0) return false;
  out.file = l.substr(0, at);
  size_t pos = at + 3;
  const size_t sp = l.find(" (", pos);
  const size_t close = l.find("): ", pos);
  if (sp == std::string::npos || close == std::string::npos || close < sp) return false;
  const std::string hex = l.substr(pos, sp - pos), dec = l.substr(sp + 2, close - sp - 2);
  if (hex.empty() || hex.find_first_not_of("0123456789abcdef") != std::string::npos) return false;
  if (dec.empty() || dec.find_first_not_of("0123456789") != std::string::npos) return false;
  out.hex = std::stoull(hex, nullptr, 16);
  out.dec = std::stoull(dec);
  pos = close + 3;
  const size_t colon = l.find(": ", pos);
  if (colon == std::string::npos) return false;
  out.severity = l.substr(pos, colon - pos);
  if (out.severity != "error" && out.severity != "warning") return false;
  const size_t open = l.rfind(" [");
  if (open == std::string::npos || l.back() != ']' || open <= colon + 2) return false;
  out.message = l.substr(colon + 2, open - colon - 2);
  out.rule = l.substr(open + 2, l.size() - open - 3);
  return is_id(out.rule);
}

// ::error|warning file=F,title=pmclog-validate RULE::MESSAGE (GitHub workflow command).
bool is_annotation(const std::string& l) {
  std::string rest;
  if (l.rfind("::error file=", 0) == 0) {
    rest = l.substr(13);
  } else if (l.rfind("::warning file=", 0) == 0) {
    rest = l.substr(15);
  } else {
    return false;
  }
  const size_t comma = rest.find(",title=pmclog-validate ");
  if (comma == std::string::npos || comma == 0) return false;
  if (rest.substr(0, comma).find_first_of(",:\r\n") != std::string::npos) return false;
  rest = rest.substr(comma + 23);
  const size_t sep = rest.find("::");
  if (sep == std::string::npos || !is_id(rest.substr(0, sep))) return false;
  const std::string msg = rest.substr(sep + 2);
  return !msg.empty() && msg.find_first_of("\r\n") == std::string::npos;
}

TEST_F(Cli, HelpAndVersion) {
  const Ran h = run({"--help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("Usage: pmclog-validate"), std::string::npos);
  for (const char* opt : {"--format", "--disable", "--enable", "--pedantic", "--strict",
                          "--max-cpu", "--max-errors", "--quiet", "--list-rules",
                          "--generation", "--address-width", "--byte-order"}) {
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
  }
  for (const char* opt : {"-V", "--version"}) {
    const Ran v = run({opt});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("pmclog-validate ", 0), 0u);
  }
}

// The options once, then the examples, then the exit statuses (the options used to come
// twice: "Options" in the text and again as the group's caption, after the examples).
TEST_F(Cli, HelpPrintsEachOptionOnceBeforeTheExamples) {
  const Ran h = run({"--help"});
  ASSERT_EQ(h.status, 0);
  const size_t examples = h.out.find("\nExamples:\n"), status = h.out.find("\nExit status:\n");
  ASSERT_NE(examples, std::string::npos) << h.out;
  ASSERT_NE(status, std::string::npos) << h.out;
  EXPECT_LT(examples, status);
  for (const char* opt : {"--format", "--output", "--disable", "--enable", "--pedantic",
                          "--strict", "--max-cpu", "--max-errors", "--quiet", "--list-rules",
                          "--generation", "--address-width", "--byte-order", "--time-width",
                          "--help", "--version"}) {
    // an option line: "  --x", "  -f [ --x ]"; the name may recur only in descriptions
    size_t lines = 0, first = std::string::npos;
    for (size_t at = 0; (at = h.out.find(opt, at)) != std::string::npos; ++at) {
      const size_t bol = h.out.rfind('\n', at) + 1;
      const std::string head = h.out.substr(bol, at - bol);
      const bool short_form = head.size() == 7 && head.rfind("  -", 0) == 0 &&
                              head.compare(4, 3, " [ ") == 0;  // "  -f [ "
      if (head == "  " || short_form) {
        ++lines;
        if (first == std::string::npos) first = at;
      }
    }
    EXPECT_EQ(lines, 1u) << opt;
    EXPECT_LT(first, examples) << opt;
  }
  EXPECT_EQ(h.out.find("Options:"), std::string::npos) << "no untitled duplicate group";
}

TEST_F(Cli, UsageErrorsExitTwo) {
  // No file is standard input, as in every tool (here /dev/null: an empty log, exit 1).
  const Ran none = run({});
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.out.find("(stdin):0x0 (0): error: the log is empty"), std::string::npos)
      << none.out;
  EXPECT_EQ(run({"--no-such-option", "x"}).status, 2);
  EXPECT_EQ(run({"--format=xml", valid()}).status, 2);
  EXPECT_EQ(run({"--disable", "no-such-rule", valid()}).status, 2);
  EXPECT_EQ(run({"--generation", "L9", valid()}).status, 2);
  for (const std::string& bad : {std::string("--address-width 32"), std::string("-w 4"),
                                 std::string("-g L3"), std::string("-b big"),
                                 std::string("--time-width 3")}) {
    const Ran r = run(pmclog_test::concat({words(bad), {valid()}}));
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.out, "") << bad;
    EXPECT_EQ(r.err.rfind("pmclog-validate: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("\nTry 'pmclog-validate --help'.\n"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run({"--enable", "cpu-out-of-range", valid()}).status, 2);  // needs --max-cpu
  const Ran missing = run({dir_ / "missing.pmclog"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("missing.pmclog"), std::string::npos);
}

TEST_F(Cli, ExitStatuses) {
  const Ran ok = run({valid()});
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_EQ(lines(ok.out).size(), 1u);
  EXPECT_NE(ok.out.find("0 errors, 0 warnings"), std::string::npos) << ok.out;

  EXPECT_EQ(run({with_warning()}).status, 0);
  EXPECT_EQ(run({"--strict", with_warning()}).status, 1);
  EXPECT_EQ(run({with_errors()}).status, 1);
  EXPECT_EQ(run({"--disable", "dropnotify", "--strict", with_warning()}).status, 0);
  // An unreadable file wins: 2 even when another file has errors.
  EXPECT_EQ(run({with_errors(), dir_ / "nope"}).status, 2);
  // Not a log at all: a finding (1), not an I/O error.
  const Ran junk = run({write("junk.txt", std::vector<uint8_t>(100, 'j'))});
  EXPECT_EQ(junk.status, 1);
  EXPECT_NE(junk.out.find("[not-a-log]"), std::string::npos) << junk.out;
}

TEST_F(Cli, TextLinesAreSortedWithHexAndDecimalOffsets) {
  const Ran r = run({with_errors()});
  const auto ls = lines(r.out);
  ASSERT_EQ(ls.size(), 4u) << r.out;  // three diagnostics and the summary
  uint64_t prev = 0;
  for (size_t i = 0; i + 1 < ls.size(); ++i) {
    Line m;
    ASSERT_TRUE(parse_line(ls[i], m)) << ls[i];
    EXPECT_EQ(m.hex, m.dec) << ls[i];
    EXPECT_GE(m.dec, prev);
    prev = m.dec;
    EXPECT_EQ(m.severity, "error");
    EXPECT_FALSE(m.message.empty());
  }
  EXPECT_NE(ls[0].find("[bad-magic]"), std::string::npos);
  EXPECT_NE(ls[1].find("[unknown-type]"), std::string::npos);
  EXPECT_NE(ls[2].find("[truncated]"), std::string::npos);
  EXPECT_NE(ls[3].find("3 errors"), std::string::npos) << ls[3];
}

TEST_F(Cli, QuietPrintsNothing) {
  const Ran r = run({"--quiet", with_errors()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, MaxErrorsLimitsTheLines) {
  const Ran r = run({"--max-errors", "1", with_errors()});
  EXPECT_EQ(r.status, 1);
  const auto ls = lines(r.out);
  ASSERT_EQ(ls.size(), 2u) << r.out;
  EXPECT_NE(ls[0].find("[bad-magic]"), std::string::npos);
  EXPECT_NE(ls[1].find("2 not shown"), std::string::npos) << ls[1];
}

TEST_F(Cli, StandardInputAndGzip) {
  const fs::path f = with_errors();
  const Ran file = run({f});
  const Ran pipe = run({"-"}, f.string());
  EXPECT_EQ(pipe.status, 1);
  // Same diagnostics, named "(stdin)" as in every tool.
  EXPECT_EQ(lines(pipe.out).size(), lines(file.out).size()) << pipe.out;
  EXPECT_NE(pipe.out.find("(stdin):0x"), std::string::npos) << pipe.out;
  if (pmclog_test::run({"gzip", "--version"}).status == 0) {
    ASSERT_EQ(pmclog_test::run({"gzip", "-k", f}).status, 0);
    const Ran gz = run({f.string() + ".gz"});
    EXPECT_EQ(gz.status, 1);
    EXPECT_EQ(lines(gz.out).size(), lines(file.out).size()) << gz.out;
  }
}

TEST_F(Cli, JsonReportParsesAndCarriesEveryField) {
  // A file name with a quote and a control character must still give valid JSON.
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.set_magic(x.userdata, 0x22);
  const fs::path odd = write("od\"d\x01name.pmclog", b.bytes());
  const Ran r = run({"--format=json", odd, valid()});
  EXPECT_EQ(r.status, 1);
  const auto j = nlohmann::json::parse(r.out);  // throws (fails the test) when invalid
  ASSERT_EQ(j["files"].size(), 2u);
  const auto& f = j["files"][0];
  EXPECT_EQ(f["errors"], 1);
  EXPECT_EQ(f["valid"], false);
  EXPECT_EQ(f["abi"]["generation"], "L3");
  ASSERT_EQ(f["diagnostics"].size(), 1u);
  const auto& d = f["diagnostics"][0];
  EXPECT_EQ(d["rule"], "bad-magic");
  EXPECT_EQ(d["severity"], "error");
  EXPECT_EQ(d["offset"], b.offset(x.userdata));
  EXPECT_EQ(d["record"], x.userdata);
  EXPECT_TRUE(d["message"].is_string());
  EXPECT_EQ(j["files"][1]["valid"], true);
  EXPECT_EQ(j["summary"]["errors"], 1);
  EXPECT_EQ(j["summary"]["files"], 2);
  EXPECT_EQ(j["summary"]["exit_status"], 1);
  EXPECT_GT(j["summary"]["records"].get<int>(), 20);
}

TEST_F(Cli, GithubAnnotations) {
  const Ran r = run({"--format=github", with_errors(), with_warning()});
  EXPECT_EQ(r.status, 1);
  const auto ls = lines(r.out);
  ASSERT_EQ(ls.size(), 5u) << r.out;  // 3 errors, 1 warning, summary
  for (size_t i = 0; i + 1 < ls.size(); ++i) EXPECT_TRUE(is_annotation(ls[i])) << ls[i];
  EXPECT_FALSE(is_annotation("::error file=a,b,title=pmclog-validate x::m"));  // self-check
  EXPECT_EQ(ls[3].rfind("::warning ", 0), 0u) << ls[3];
  EXPECT_EQ(ls[4].rfind("checked 2 files", 0), 0u) << ls[4];
}

TEST_F(Cli, JunitFileIsWellFormedAndWrittenAtomically) {
  const fs::path xml = dir_ / "report.xml";
  const Ran r = run({"--format=junit", "-o", xml, with_errors(), with_warning(), valid()});
  EXPECT_EQ(r.status, 1);
  ASSERT_TRUE(fs::exists(xml));
  const std::string text = slurp(xml);
  EXPECT_NE(text.find("<testsuites"), std::string::npos);
  EXPECT_NE(text.find("tests=\"3\" failures=\"1\""), std::string::npos) << text;
  EXPECT_NE(text.find("<failure"), std::string::npos);
  EXPECT_NE(text.find("[bad-magic]"), std::string::npos);
  // Well formed: a real XML parser accepts it.
  const Ran check = pmclog_test::run(
      {"python3", "-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", xml});
  EXPECT_EQ(check.status, 0) << check.err << text;
  // No temporary file left beside it.
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  }
  // --strict turns the warning-only file into a failure too.
  EXPECT_EQ(run({"--strict", "--format=junit", "-o", xml, with_warning()}).status, 1);
  EXPECT_NE(slurp(xml).find("failures=\"1\""), std::string::npos);
  // An unwritable output is an I/O error and leaves nothing behind.
  EXPECT_EQ(run({"--format=junit", "-o", dir_ / "no-dir" / "r.xml", valid()}).status, 2);
}

TEST_F(Cli, ListRules) {
  const Ran r = run({"--list-rules"});
  EXPECT_EQ(r.status, 0);
  for (const auto& rule : pmclog::validate::rules()) {
    EXPECT_NE(r.out.find(std::string(rule.id)), std::string::npos) << rule.id;
  }
  EXPECT_NE(r.out.find("why error:"), std::string::npos);
  EXPECT_NE(r.out.find("why warning:"), std::string::npos);
  const Ran j = run({"--list-rules", "--format=json"});
  const auto arr = nlohmann::json::parse(j.out);
  ASSERT_EQ(arr.size(), pmclog::validate::kRuleCount);
  for (const auto& e : arr) {
    EXPECT_TRUE(e["severity"] == "error" || e["severity"] == "warning");
    EXPECT_FALSE(e["why"].get<std::string>().empty());
  }
}

// The section numbers docs/format.md gives its headings ("## 4. Byte and word order",
// "### 9.3 pmc ids").
std::set<std::string> format_doc_sections() {
  std::set<std::string> out;
  const std::regex heading(R"(^#{2,3} (\d+(\.\d+)*)\.? )");
  for (const std::string& l : lines(slurp(PMCLOG_FORMAT_DOC))) {
    std::smatch m;
    if (std::regex_search(l, m, heading)) out.insert(m[1]);
  }
  return out;
}

// The "§N" a text cites.
std::vector<std::string> cited_sections(const std::string& text) {
  std::vector<std::string> out;
  const std::regex cite(R"(§(\d+(\.\d+)*))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), cite); it != std::sregex_iterator();
       ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

// The rule texts cite the project's own format notes, and only sections that exist there.
TEST_F(Cli, ListRulesCitesFormatDocSections) {
  const std::set<std::string> sections = format_doc_sections();
  ASSERT_TRUE(sections.count("2.2") && sections.count("18")) << "docs/format.md headings";
  const Ran text = run({"--list-rules"});
  const Ran json = run({"--list-rules", "--format=json"});
  ASSERT_EQ(text.status, 0);
  ASSERT_EQ(json.status, 0);
  // Rules cite docs/format.md, whose name is lower case; no upper-case FORMAT file is named.
  for (const std::string& out : {text.out, json.out}) {
    EXPECT_EQ(out.find("FORMAT"), std::string::npos) << out;
  }
  EXPECT_NE(text.out.find("Section numbers refer to docs/format.md"), std::string::npos);
  size_t citing = 0;
  for (const auto& e : nlohmann::json::parse(json.out)) {
    const std::string why = e["why"].get<std::string>();
    const std::string id = e["id"].get<std::string>();
    const auto cited = cited_sections(why + " " + e["description"].get<std::string>());
    if (cited.empty()) continue;
    ++citing;
    // The first citation names the file; "§N" alone may only follow it.
    EXPECT_LT(why.find("format.md §"), why.find("§")) << id << ": " << why;
    for (const std::string& n : cited) {
      EXPECT_TRUE(sections.count(n)) << id << " cites format.md §" << n
                                     << ", which docs/format.md has no heading for";
    }
  }
  EXPECT_GT(citing, 20u);  // most rules say where their reason is written down
}

TEST_F(Cli, RuleSwitchesAndCpuLimit) {
  const std::string seed = std::string(PMCLOG_FIXTURES_DIR) + "/golden/seed-lp64-le.pmclog";
  // Only warnings (pmcid-never-allocated, dropnotify; see fixtures_test.cpp): valid, unless
  // --strict.
  EXPECT_EQ(run({seed}).status, 0);
  EXPECT_EQ(run({"--strict", seed}).status, 1);
  EXPECT_EQ(run({"--strict", "--disable", "pmcid-never-allocated,dropnotify", seed}).status, 0);
  // --pedantic adds map-out-without-map-in, which --enable turns on alone.
  EXPECT_EQ(run({"--strict", "--pedantic", "--disable", "pmcid-never-allocated,dropnotify", seed}).status, 1);
  EXPECT_EQ(run({"--strict", "--enable", "map-out-without-map-in", "--disable",
                 "pmcid-never-allocated,dropnotify", seed}).status, 1);
  EXPECT_EQ(run({"--disable", "structure", seed}).status, 0);
  const Ran cpu = run({"--disable", "structure", "--max-cpu", "63", seed});
  EXPECT_EQ(cpu.status, 1);  // its callchains name cpus 127 and 254
  EXPECT_NE(cpu.out.find("[cpu-out-of-range]"), std::string::npos) << cpu.out;
  const Ran ped = run({"--pedantic", "--disable", "structure,dropnotify", seed});
  EXPECT_EQ(ped.status, 0) << ped.out;
}

TEST_F(Cli, AbiOverrideNeverCrashes) {
  for (const char* o : {"--byte-order big", "--generation M9", "--generation L1",
                        "--address-width 4", "--generation M --address-width 4"}) {
    const Ran r = run(pmclog_test::concat({words(o), {valid()}}));
    EXPECT_TRUE(r.status == 1) << o << "\n" << r.out << r.err;
  }
}

}  // namespace
}  // namespace validate_test
