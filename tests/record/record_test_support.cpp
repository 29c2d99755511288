#include "record_test_support.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace rectest {

std::vector<const pmclog::RecordValue*> Log::of(pmclog::Kind k) const {
  std::vector<const pmclog::RecordValue*> v;
  for (const auto& r : records)
    if (r.kind == k) v.push_back(&r);
  return v;
}

Log read_log(const std::string& path) {
  Log log;
  auto opened = pmclog::open_log(path);
  if (!opened) {
    log.error = opened.error().message;
    return log;
  }
  log.abi = opened->detection.abi;
  pmclog::Record r;
  pmclog::Error e;
  for (;;) {
    auto step = opened->reader->next(r, e);
    if (step == pmclog::Step::end) break;
    if (step == pmclog::Step::error) {
      log.error = e.message;
      return log;
    }
    log.records.push_back(pmclog::to_value(r, log.abi));
  }
  log.ok = true;
  return log;
}

bool file_exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::string real_path(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? std::string(buf) : p;
}

namespace {
// The address and size of a symbol from `nm -S` ({0, 0} when unknown).
std::pair<uint64_t, uint64_t> nm_symbol(const std::string& binary, const std::string& symbol) {
  const Ran r = run({"nm", "-S", "--defined-only", binary});
  std::istringstream lines(r.out);
  std::pair<uint64_t, uint64_t> found{0, 0};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string addr, sz, type, name;
    if (words >> addr >> sz >> type >> name && name == symbol)
      found = {std::strtoull(addr.c_str(), nullptr, 16), std::strtoull(sz.c_str(), nullptr, 16)};
  }
  return found;
}
}  // namespace

uint64_t symbol_size(const std::string& binary, const std::string& symbol) {
  return nm_symbol(binary, symbol).second;
}

uint64_t symbol_address(const std::string& binary, const std::string& symbol) {
  return nm_symbol(binary, symbol).first;
}

bool output_value(const std::string& out, const std::string& key, uint64_t& value) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + " ", 0) == 0) {
      value = std::strtoull(line.c_str() + key.size() + 1, nullptr, 0);
      return true;
    }
  }
  return false;
}

int validate(const std::string& path, std::string* report, bool strict) {
#ifdef PMCLOG_VALIDATE_EXE
  auto r = strict ? run({PMCLOG_VALIDATE_EXE, "--strict", path}) : run({PMCLOG_VALIDATE_EXE, path});
  if (report) *report = r.out + r.err;
  return r.status;
#else
  (void)path;
  (void)report;
  (void)strict;
  return -1;
#endif
}

}  // namespace rectest
