// The `perf-script` output: every sample in the layout of `perf script`, written as the logs
// are read, so that memory stays flat however many samples there are.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pmcprofile/session.h"

namespace report {

struct PerfScriptOptions {
  bool inlines = false;  // inlined calls as lines of their own
};

// Give sample() every sample Session::add_log_named hands on (in time order, with the names
// of its frames), then finish(). The text (about 130 bytes per frame of each sample) goes to
// `sink` in pieces of about 1 MiB.
class PerfScriptWriter {
 public:
  PerfScriptWriter(const PerfScriptOptions& o, std::function<void(std::string_view)> sink);
  void sample(const pmcprofile::NamedSample& named);
  void finish();

 private:
  // Escaped names by id, with the name each was made from.
  struct Names {
    std::vector<std::string> raw, safe;
  };
  const std::string& frame_text(const pmcprofile::NamedSample& named, size_t k);
  const std::string& safe_text(Names& cache, const std::vector<std::string>& from, uint32_t id);

  bool inlines_;
  std::function<void(std::string_view)> sink_;
  std::string chunk_;
  // Made once each, by frame: the " SYM+0xOFF (DSO)\n" ends of its lines (a frame holds one
  // line per function, inlined calls first).
  std::vector<std::string> frame_text_;
  std::vector<bool> made_;
  Names events_, comms_;
};

}  // namespace report
