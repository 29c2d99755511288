// Running pmclog-dump as a subprocess: its stdout, stderr and exit status.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dumptest {

struct ToolRun {
  std::string out, err;
  int status = -1;  // exit status, or 128+signal
};

// Runs a shell command line; `$DUMP` in it stands for the tool's path.
ToolRun run_shell(const std::string& cmdline);
// Runs the tool with these arguments (each quoted for the shell).
ToolRun run_dump(const std::vector<std::string>& args, const std::string& stdin_file = "");

std::string fixture(const std::string& rel);  // PMCLOG_FIXTURES_DIR/rel
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& bytes);
std::string temp_dir();  // a fresh directory for this test process
std::vector<std::string> lines(const std::string& s);
std::string shell_quote(const std::string& s);

}  // namespace dumptest
