#include "run_tool.h"

#include <sstream>

namespace dumptest {

std::string temp_dir() {
  static const pmclog_test::ScratchDir dir;
  return dir.str();
}

std::string fixture(const std::string& rel) { return std::string(PMCLOG_FIXTURES_DIR) + "/" + rel; }

Ran run_shell(const std::string& cmdline) {
  std::string cmd = cmdline;
  for (size_t p; (p = cmd.find("$DUMP")) != std::string::npos;)
    cmd.replace(p, 5, shell_quote(kDump));
  return pmclog_test::bash(cmd);
}

Ran run_dump(const std::vector<std::string>& args, const std::string& stdin_file) {
  RunOptions o;
  o.stdin_path = stdin_file;
  return run(concat({{kDump}, args}), o);
}

Ran jsonl_to_write(const std::vector<std::string>& dump_args,
                   const std::vector<std::string>& write_args, const RunOptions& dump_in) {
  const Ran dump = run(concat({{kDump, "--format=jsonl"}, dump_args}), dump_in);
  Ran w = run(concat({{PMCLOG_WRITE_EXE}, write_args, {"-"}}), stdin_piped(dump.out));
  w.err = dump.err + w.err;
  return w;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

}  // namespace dumptest
