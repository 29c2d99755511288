// Separate debug files are looked for on this machine only, unless DEBUGINFOD_URLS names a
// server: an object with a build id and no local debug file (libstdc++ without its -dbg
// package) loads no debuginfod client (libcurl and some thirty libraries) into the report.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "pmcprofile/session.h"
#include "report_support.h"
#include "support/process.h"

namespace {

using namespace reptest::synthetic;

TEST(Debuginfo, NoDebuginfodClientWithoutAServer) {
  const char* servers = std::getenv("DEBUGINFOD_URLS");
  if (servers != nullptr && servers[0] != '\0') GTEST_SKIP() << "DEBUGINFOD_URLS is set";
  if (pmclog_test::self_maps("libdebuginfod")) GTEST_SKIP() << "another test in this process loaded it";
  std::error_code ec;
  const std::filesystem::path lib =
      std::filesystem::canonical("/usr/lib/x86_64-linux-gnu/libstdc++.so.6", ec);
  if (ec) GTEST_SKIP() << "no libstdc++ at the usual place";
  const std::string id = reptest::build_id(lib.string());
  if (id.size() > 2 &&
      std::filesystem::exists("/usr/lib/debug/.build-id/" + id.substr(0, 2) + "/" +
                              id.substr(2) + ".debug"))
    GTEST_SKIP() << "libstdc++'s debug file is installed: the search ends before a server";
  reptest::ScratchDir dir;
  const std::string log = reptest::write_log(
      dir, "stdcxx",
      {kInit, kCpuClock,
       R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"/usr/bin/prog","tsc":1004})",
       // pmclog-record's mark (a vDSO), so that this machine's files can be the log's.
       R"({"type":"map-in","pid":50,"start_hex":"0x7ff000000000","path":"[vdso]","tsc":1005})",
       R"({"type":"map-in","pid":50,"start_hex":"0x800400000","path":")" + lib.string() +
           R"(","tsc":1005})",
       R"({"type":"callchain","pid":50,"tid":50,"pmcid":)" + std::to_string(kPmcA) +
           R"(,"cpu":0,"usermode":1,"pcs_hex":["0x800401000"]})",
       R"({"type":"closelog"})"});
  pmcprofile::Session s(pmcprofile::Options{});
  ASSERT_TRUE(s.add_log(log).error.empty());
  s.symbolize();
  EXPECT_EQ(s.symbolizer().objects_opened(), 1u);
  EXPECT_FALSE(pmclog_test::self_maps("libdebuginfod"));
}

}  // namespace
