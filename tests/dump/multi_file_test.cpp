// Several files in one run: text forms put head(1)'s `==> NAME <==` line before
// each file and a blank line between files, JSON Lines records carry "file", summaries are
// one section per file; the exit status is the worst of the files, and files after a bad
// one are still dumped. Expectations are built from single-file runs of the same tool.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pmclog/text.h"
#include "run_tool.h"

using namespace dumptest;

namespace {

const std::string kSeed = "golden/seed-lp64-le.pmclog";
const std::string kModern = "golden/modern-lp64-le.pmclog";

std::string single(const std::vector<std::string>& opts, const std::string& file) {
  std::vector<std::string> args = opts;
  args.push_back(file);
  const Ran r = run_dump(args);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(r.out.empty());
  return r.out;
}

std::string header(const std::string& shown) { return "==> " + shown + " <==\n"; }

// A copy of the seed log cut inside its last record: a data error after good records.
std::string truncated_seed() {
  const std::string path = temp_dir() + "/multi-truncated.pmclog";
  const std::string bytes = slurp(fixture(kSeed));
  write_file(path, bytes.substr(0, bytes.size() - 3));
  return path;
}

}  // namespace

TEST(MultiFile, TextFormsHaveAHeaderPerFile) {
  const std::string a = fixture(kSeed), b = fixture(kModern);
  const std::vector<std::vector<std::string>> modes = {{}, {"--format=pmcstat"}, {"--explain"}};
  for (const auto& opts : modes) {
    SCOPED_TRACE(opts.empty() ? "text" : opts[0]);
    std::vector<std::string> args = opts;
    args.insert(args.end(), {a, b});
    const Ran r = run_dump(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, header(a) + single(opts, a) + "\n" + header(b) + single(opts, b));
  }
}

TEST(MultiFile, OneFileHasNoHeader) {
  const Ran r = run_dump({fixture(kSeed)});
  EXPECT_EQ(r.out.find("==> "), std::string::npos);
}

TEST(MultiFile, HeaderNamesAreEscapedAndStdinIsNamed) {
  const std::string odd = temp_dir() + "/multi\x1b[31mred\n.pmclog";
  write_file(odd, slurp(fixture(kSeed)));
  const Ran r = run_dump({odd, "-"}, fixture(kModern));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.out, header(pmclog::display_path(odd)) + single({}, fixture(kSeed)) + "\n" +
                       header("(stdin)") + single({}, fixture(kModern)));
}

TEST(MultiFile, JsonlRecordsCarryTheFile) {
  const std::string odd = temp_dir() + "/multi \"quoted\"\t.pmclog";
  write_file(odd, slurp(fixture(kSeed)));
  const Ran r = run_dump({"--format=jsonl", odd, "-"}, fixture(kModern));
  ASSERT_EQ(r.status, 0) << r.err;
  // Without "file", each object is the one a single-file run prints.
  std::vector<std::pair<std::string, std::string>> want;  // (file member, line)
  for (const auto& l : lines(single({"--format=jsonl"}, fixture(kSeed)))) want.emplace_back(odd, l);
  for (const auto& l : lines(single({"--format=jsonl"}, fixture(kModern))))
    want.emplace_back("(stdin)", l);
  const auto got = lines(r.out);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    auto j = nlohmann::json::parse(got[i]);
    ASSERT_TRUE(j.contains("file")) << got[i];
    EXPECT_EQ(j["file"], want[i].first);
    j.erase("file");
    EXPECT_EQ(j, nlohmann::json::parse(want[i].second)) << i;
  }
  const Ran one = run_dump({"--format=jsonl", fixture(kSeed)});
  for (const auto& l : lines(one.out)) EXPECT_FALSE(nlohmann::json::parse(l).contains("file"));
}

TEST(MultiFile, StatsAreOneSectionPerFile) {
  const std::string a = fixture(kSeed), b = fixture(kModern);
  const Ran text = run_dump({"--stats", a, b});
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_EQ(text.out, single({"--stats"}, a) + "\n" + single({"--stats"}, b));

  const Ran json = run_dump({"--stats", "--format=json", a, b});
  EXPECT_EQ(json.status, 0) << json.err;
  const auto got = lines(json.out);
  ASSERT_EQ(got.size(), 2u) << json.out;  // one object per line, each naming its file
  EXPECT_EQ(nlohmann::json::parse(got[0]), nlohmann::json::parse(single({"--stats", "--format=json"}, a)));
  EXPECT_EQ(nlohmann::json::parse(got[1])["file"], b);

  const Ran abi = run_dump({"--show-abi", a, b});
  EXPECT_EQ(abi.status, 0) << abi.err;
  EXPECT_EQ(abi.out, single({"--show-abi"}, a) + single({"--show-abi"}, b));
}

TEST(MultiFile, WorstStatusAndLaterFilesStillDumped) {
  const std::string good = fixture(kModern), bad = truncated_seed();
  const std::string missing = temp_dir() + "/multi-no-such.pmclog";
  const std::string good_out = single({}, good);
  const std::string bad_part = run_dump({bad}).out;  // the records before the damage
  ASSERT_FALSE(bad_part.empty());
  ASSERT_EQ(single({}, fixture(kSeed)).rfind(bad_part, 0), 0u);

  const Ran r = run_dump({good, bad, good});
  EXPECT_EQ(r.status, 1);  // data error
  EXPECT_EQ(r.out, header(good) + good_out + "\n" + header(bad) + bad_part + "\n" + header(good) +
                       good_out);
  ASSERT_EQ(lines(r.err).size(), 2u) << r.err;  // the error, then the -k hint
  EXPECT_NE(lines(r.err)[0].find(bad), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err)[1].rfind("pmclog-dump: note: stopped at the first damage", 0), 0u) << r.err;

  const Ran m = run_dump({bad, missing, good});
  EXPECT_EQ(m.status, 2);  // an I/O error is worse than a data error, whatever the order
  EXPECT_EQ(m.out, header(bad) + bad_part + "\n" + header(good) + good_out);
  EXPECT_NE(m.err.find("multi-no-such.pmclog"), std::string::npos) << m.err;

  const Ran j = run_dump({"--format=jsonl", missing, bad, good});
  EXPECT_EQ(j.status, 2);
  const auto got = lines(j.out);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(nlohmann::json::parse(got.front())["file"], bad);
  EXPECT_EQ(nlohmann::json::parse(got.back())["file"], good);
  EXPECT_EQ(got.size(), lines(run_dump({"--format=jsonl", bad}).out).size() +
                            lines(single({"--format=jsonl"}, good)).size());
}
