// Helpers for the pmclog-record tests: running programs as subprocesses and reading logs
// back with the library.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pmclog/pmclog.h"

namespace rectest {

struct RunResult {
  int status = -1;  // exit code, or 128+signal
  std::string out, err;
};

// Runs argv[0] with argv; `during` is called with the child's pid while it runs. With
// `uid` >= 0 (root only) the program runs as that user.
RunResult run(const std::vector<std::string>& argv,
              const std::function<void(pid_t)>& during = {}, int uid = -1);
// The same with standard output on `out_fd` (a pipe, a terminal, /dev/full): `out` stays
// empty. `during` runs after the fork, with the parent's copy of `out_fd` still open.
RunResult run_with_stdout(const std::vector<std::string>& argv, int out_fd,
                          const std::function<void(pid_t)>& during = {});

struct Log {
  bool ok = false;
  std::string error;
  pmclog::Abi abi;
  std::vector<pmclog::RecordValue> records;

  std::vector<const pmclog::RecordValue*> of(pmclog::Kind k) const;
  size_t count(pmclog::Kind k) const { return of(k).size(); }
};
Log read_log(const std::string& path);

// A fresh directory for one test, removed with its files at destruction.
struct TempDir {
  TempDir();
  ~TempDir();
  std::string path;
  std::string file(const std::string& name) const { return path + "/" + name; }
  std::vector<std::string> entries() const;
};

bool file_exists(const std::string& p);
std::string real_path(const std::string& p);
// Size of a symbol from `nm -S` (0 when unknown).
uint64_t symbol_size(const std::string& binary, const std::string& symbol);
// Its address in the file, from `nm` (0 when unknown).
uint64_t symbol_address(const std::string& binary, const std::string& symbol);
// The first "KEY VALUE" line of a workload's output; VALUE parsed as integer (base 0).
bool output_value(const std::string& out, const std::string& key, uint64_t& value);
// Runs pmclog-validate (with --strict: warnings fail too) when it was built; returns its
// exit status, or -1 when absent.
int validate(const std::string& path, std::string* report = nullptr, bool strict = true);

}  // namespace rectest
