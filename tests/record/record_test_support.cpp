#include "record_test_support.h"

#include <sys/stat.h>

#include <climits>
#include <cstdio>
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

Ran record_sampled(const std::string& log, const std::string& call_graph,
                   const std::vector<std::string>& command) {
  std::vector<std::string> argv{kRecord, "--call-graph", call_graph, "-F", "999", "-o", log, "--"};
  argv.insert(argv.end(), command.begin(), command.end());
  return run(argv);
}

#ifdef PMCLOG_REPORT_EXE
namespace {
bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}
}  // namespace

LeafStacks leaf_stacks(const std::string& log, const std::string& prefix,
                       const std::string& suffix, const std::vector<std::string>& report_args) {
  std::vector<std::string> argv{kReport, "--format", "folded"};
  argv.insert(argv.end(), report_args.begin(), report_args.end());
  argv.push_back(log);
  const auto r = run(argv);
  EXPECT_EQ(r.status, 0) << r.err;
  LeafStacks s;
  s.leaf = suffix.substr(suffix.rfind(';') + 1);
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const size_t sp = line.rfind(' ');
    if (sp == std::string::npos) continue;
    const std::string stack = line.substr(0, sp);
    const uint64_t n = std::strtoull(line.c_str() + sp + 1, nullptr, 10);
    if (stack != s.leaf && !ends_with(stack, ";" + s.leaf)) continue;
    s.in_leaf += n;
    if (stack.find(prefix) != std::string::npos && ends_with(stack, suffix)) s.matching += n;
    else if (s.example.empty()) s.example = line;
  }
  return s;
}

::testing::AssertionResult nearly_all_whole(const LeafStacks& s, uint64_t min_samples) {
  const std::string numbers = s.leaf + ": " + std::to_string(s.matching) + " of " +
                              std::to_string(s.in_leaf) + " samples whole";
  std::fprintf(stderr, "[ measured ] %s\n", numbers.c_str());
  if (s.in_leaf > min_samples && s.matching * 100 >= s.in_leaf * 99)
    return ::testing::AssertionSuccess() << numbers;
  return ::testing::AssertionFailure()
         << numbers << " (at least " << min_samples + 1 << " samples and 99% expected), e.g. "
         << s.example;
}
#endif

}  // namespace rectest
