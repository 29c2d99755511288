// The flame graph's page script is flamegraph.js, embedded at build time: the SVG carries the
// file's text unchanged, once, right after the constants the tool writes and at the end of
// the document.
#include <gtest/gtest.h>

#include "report_support.h"

namespace {

TEST(SvgScript, TheSvgCarriesFlamegraphJsAsItIs) {
  const std::string js = pmclog_test::slurp(FLAMEGRAPH_JS);
  ASSERT_GT(js.size(), 1000u);  // the script itself, not an empty file
  const std::string log = std::string(REPORT_FIXTURES) + "/golden.pmclog";
  const auto r = reptest::run({REPORT_EXE, "--format", "svg", log});
  ASSERT_EQ(r.status, 0) << r.err;
  const size_t at = r.out.find(js);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(r.out.find(js, at + 1), std::string::npos);
  EXPECT_EQ(r.out.substr(at + js.size()), "]]></script>\n</svg>\n");
  const size_t line = r.out.rfind('\n', at - 2) + 1;  // the line before the script's text
  EXPECT_EQ(r.out.substr(line, 8), "var T = ") << r.out.substr(line, at - line);
  const std::string open = "<script type=\"text/ecmascript\"><![CDATA[\n";
  ASSERT_GE(line, open.size());
  EXPECT_EQ(r.out.substr(line - open.size(), open.size()), open);
}

}  // namespace
