#include "mutant_support.h"

#include <fstream>

namespace known {

using reptest::hex;

void install(const std::string& object, const std::string& root, const std::string& path) {
  reptest::copy_file(object, root + path);
  std::fstream f(root + path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(7);         // e_ident[EI_OSABI]
  f.put(char{9});     // ELFOSABI_FREEBSD
}

int line_of(const std::string& name) {
  std::ifstream in(std::string(REPORT_TEST_DIR) + "/known/known_code.S");
  const std::string marker = "KNOWN-LINE " + name;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const size_t at = line.find(marker);
    // The whole name: "known_caller" is not "known_caller2".
    if (at != std::string::npos &&
        (at + marker.size() == line.size() || line[at + marker.size()] == ':' ||
         line[at + marker.size()] == ' '))
      return n;
  }
  return 0;
}

std::string sample(uint64_t tsc, const std::vector<uint64_t>& pcs, uint32_t pmc) {
  std::string s = R"({"type":"callchain","pid":)" + std::to_string(kPid) + R"(,"tid":)" +
                  std::to_string(kPid) + R"(,"pmcid":)" +
                  std::to_string(pmc) + R"(,"cpu":0,"usermode":1,"pcs_hex":[)";
  for (size_t i = 0; i < pcs.size(); ++i) s += (i ? ",\"" : "\"") + hex(pcs[i]) + "\"";
  return s + R"(],"tsc":)" + std::to_string(tsc) + "}";
}

std::string map_in(uint64_t tsc, uint64_t start, const std::string& path) {
  return R"({"type":"map-in","pid":)" + std::to_string(kPid) + R"(,"start_hex":")" + hex(start) +
         R"(","path":")" + path + R"(","tsc":)" + std::to_string(tsc) + "}";
}

std::string map_out(uint64_t tsc, uint64_t start, uint64_t end) {
  return R"({"type":"map-out","pid":)" + std::to_string(kPid) + R"(,"start_hex":")" + hex(start) +
         R"(","end_hex":")" + hex(end) + R"(","tsc":)" + std::to_string(tsc) + "}";
}

std::string exec(uint64_t tsc, const std::string& path, uint64_t entryaddr, uint64_t dynaddr) {
  return R"({"type":"procexec","pid":)" + std::to_string(kPid) + R"(,"pmcid":)" +
         std::to_string(reptest::synthetic::kPmcA) + R"(,"entryaddr_hex":")" + hex(entryaddr) +
         R"(","dynaddr_hex":")" + hex(dynaddr) + R"(","path":")" + path + R"(","tsc":)" +
         std::to_string(tsc) + "}";
}

std::string closelog(uint64_t tsc) {
  return R"({"type":"closelog","tsc":)" + std::to_string(tsc) + "}";
}

std::vector<std::string> modern_log_start() {
  return {reptest::synthetic::kInit, reptest::synthetic::kCpuClock};
}

reptest::Ran report(std::vector<std::string> args) {
  args.insert(args.begin(), REPORT_EXE);
  return reptest::run(args);
}

void SysrootTest::SetUp() {
  if (!available()) GTEST_SKIP() << "the known objects are x86-64 code";
  install(KNOWN_EXEC, root, kExecPath);
  install(KNOWN_PIE, root, kPiePath);
}

reptest::Ran SysrootTest::report_on(std::vector<std::string> args, const std::string& log) {
  args.insert(args.begin(), {"--sysroot", root});
  args.push_back(log);
  auto r = report(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return r;
}

}  // namespace known
