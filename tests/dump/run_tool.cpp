#include "run_tool.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dumptest {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

std::string temp_dir() {
  static std::string dir = [] {
    char tmpl[] = "/tmp/pmclog-dump-test-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    return std::string(tmpl);
  }();
  return dir;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string fixture(const std::string& rel) { return std::string(PMCLOG_FIXTURES_DIR) + "/" + rel; }

ToolRun run_shell(const std::string& cmdline) {
  static int n = 0;
  const std::string base = temp_dir() + "/run" + std::to_string(n++);
  std::string cmd = cmdline;
  for (size_t p; (p = cmd.find("$DUMP")) != std::string::npos;)
    cmd.replace(p, 5, shell_quote(PMCLOG_DUMP_EXE));
  std::string full = "bash -c ";
  full += shell_quote(cmd);
  full += " >";
  full += base;
  full += ".out 2>";
  full += base;
  full += ".err";
  const int rc = std::system(full.c_str());
  ToolRun r;
  r.out = read_file(base + ".out");
  r.err = read_file(base + ".err");
  if (WIFEXITED(rc)) r.status = WEXITSTATUS(rc);
  return r;
}

ToolRun run_dump(const std::vector<std::string>& args, const std::string& stdin_file) {
  std::string cmd = "$DUMP";
  for (const auto& a : args) {
    cmd += ' ';  // (not " " + ...: g++ 12 warns wrongly about that form, -Wrestrict)
    cmd += shell_quote(a);
  }
  cmd += " <";
  if (stdin_file.empty()) cmd += "/dev/null";
  else cmd += shell_quote(stdin_file);
  return run_shell(cmd);
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

}  // namespace dumptest
