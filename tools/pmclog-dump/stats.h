// --stats: a summary of the selected records (counts and bytes per type, time span,
// processes, pmcs and their event names, callchain depths, user/kernel split, drops, errors).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "log_state.h"
#include "output.h"
#include "pmclog/error.h"
#include "pmclog/kind.h"
#include "pmclog/reader.h"
#include "pmclog/record.h"

namespace dump {

class Stats {
 public:
  void add(const pmclog::Record& r, const LogState& st);
  void error(const pmclog::Error& e);
  void skipped(const pmclog::SkippedRange& s);
  // Prints the summary of one file and resets.
  void print_text(const LogState& st, Output& out);
  void print_json(const LogState& st, Output& out);

 private:
  struct KindCount {
    uint64_t records = 0, bytes = 0;
  };
  struct Pmc {
    uint32_t event = 0;
    uint32_t flags = 0;
    std::string name;
    bool named = false;
    bool allocated = false;  // a PMCALLOCATE/PMCALLOCATEDYN for it was seen
    uint64_t samples = 0;
  };
  std::map<pmclog::Kind, KindCount> kinds_;
  uint64_t records_ = 0, bytes_ = 0;
  bool have_time_ = false;
  uint64_t t_min_ = 0, t_max_ = 0;  // legacy: sec*1e9+nsec; modern: TSC
  std::set<int32_t> pids_;
  std::map<int32_t, std::string> exec_paths_;
  std::map<uint32_t, Pmc> pmcs_;
  std::map<uint32_t, uint64_t> depth_;
  uint64_t user_ = 0, kernel_ = 0, drops_ = 0;
  std::vector<pmclog::Error> errors_;
  std::vector<pmclog::SkippedRange> skipped_;
};

}  // namespace dump
