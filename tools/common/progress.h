// A progress line on standard error ("TOOL: reading FILE 42%"), shown only when standard
// error is a terminal and only once the work has taken more than a second, redrawn at most
// ten times a second, erased when done. Never in a pipe or a file: logs stay clean.
// PMCLOG_PROGRESS_AFTER_MS sets the delay (0: at once) so that tests under a pseudo-terminal
// see it on a small input.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace pmclog::tools {

class Progress {
 public:
  explicit Progress(bool wanted = true);
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool on() const { return on_; }
  // What is being done, e.g. "reading cpu.pmclog" (escaped when shown).
  void set_label(std::string_view label);
  // `done` of `total` units; total 0: unknown, shown as a count of `unit` (bytes are shown
  // in MB). Cheap when nothing is to be drawn.
  void update(uint64_t done, uint64_t total, std::string_view unit = "bytes");
  void clear();

 private:
  bool on_;
  bool shown_ = false;
  std::chrono::milliseconds delay_;
  std::chrono::steady_clock::time_point start_, last_;
  std::string label_;
};

}  // namespace pmclog::tools
