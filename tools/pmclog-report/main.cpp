// pmclog-report: option parsing and printing over the profile library (libpmcprofile).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "options.h"
#include "output_file.h"
#include "pmclog/open.h"
#include "pmclog/text.h"
#include "print_folded.h"
#include "print_top.h"
#include "same_file.h"
#include "temp_cleanup.h"

namespace {

constexpr const char* kTool = "pmclog-report";

// How long a log is read before the progress line appears. Tests set
// PMCLOG_REPORT_PROGRESS_AFTER_MS (milliseconds; 0: at once) to see it on a small log.
std::chrono::milliseconds progress_delay() {
  if (const char* e = std::getenv("PMCLOG_REPORT_PROGRESS_AFTER_MS")) {
    char* end = nullptr;
    const long v = std::strtol(e, &end, 10);
    if (end != e && *end == '\0' && v >= 0) return std::chrono::milliseconds(v);
  }
  return std::chrono::seconds(1);
}

// A progress line on a terminal, only once reading has taken more than a second.
class Progress {
 public:
  explicit Progress(bool on) : on_(on && isatty(STDERR_FILENO) == 1), delay_(progress_delay()) {}
  void set_input(const std::string& name) { name_ = pmclog::input_display_name(name); }
  void update(uint64_t done, uint64_t total) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < delay_) return;
    if (total != 0)
      std::fprintf(stderr, "\r%s: reading %s %3d%%", kTool, name_.c_str(),
                   static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total)));
    else
      std::fprintf(stderr, "\r%s: reading %s %llu MB", kTool, name_.c_str(),
                   static_cast<unsigned long long>(done >> 20));
    shown_ = true;
  }
  void clear() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  bool on_;
  std::chrono::milliseconds delay_;
  bool shown_ = false;
  std::string name_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

int main(int argc, char** argv) {
  report::Config cfg;
  const int st = report::parse_options(argc, argv, cfg);
  if (st >= 0) return st;
  signal(SIGPIPE, SIG_IGN);
  pmclog::tools::install_cleanup_signal_handlers();

  // Outputs first: one that is an input is refused before anything is read.
  std::vector<std::unique_ptr<pmclog::tools::OutputFile>> files;
  pmclog::tools::OutputOptions oo;
  oo.inputs = cfg.inputs;
  for (const auto& o : cfg.outputs) {
    if (auto e = pmclog::tools::refuse_same_file(o.file, cfg.inputs)) {
      std::cerr << kTool << ": " << e.message << "\n";
      return 2;
    }
  }
  for (const auto& o : cfg.outputs) {
    auto f = std::make_unique<pmclog::tools::OutputFile>();
    if (auto e = f->open(o.file, oo)) {
      std::cerr << kTool << ": " << e.message << "\n";
      return 2;
    }
    files.push_back(std::move(f));
  }

  Progress progress(cfg.progress);
  cfg.profile.progress = [&](uint64_t d, uint64_t t) { progress.update(d, t); };
  pmcprofile::Session session(cfg.profile);
  int status = 0;
  std::vector<std::string> errors;
  bool any_log = false;  // an input had records: there is a report, if only "# No samples."
  for (const auto& in : cfg.inputs) {
    progress.set_input(in);
    const pmcprofile::InputReport r = session.add_log(in);
    progress.clear();
    any_log = any_log || (r.opened && !r.empty_input);
    if (!r.error.empty()) {
      status = 1;
      errors.push_back(r.damaged != 0 && cfg.profile.keep_going
                           ? pmclog::input_display_name(in) + ": " + std::to_string(r.damaged) +
                                 " damaged places skipped (" + std::to_string(r.skipped_bytes) +
                                 " bytes); first: " + r.error
                           : r.error);
    }
  }
  if (!any_log) {  // nothing to report on: no output file is left behind
    for (const auto& e : errors) std::cerr << kTool << ": " << pmclog::terminal_safe(e) << "\n";
    return status;
  }
  for (const auto& e : session.unmatched_events())
    std::cerr << kTool << ": warning: no event named '" << pmclog::display_path(e)
              << "' in the input\n";
  session.symbolize();

  bool top_written = false;
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    std::string text;
    for (const auto& p : session.profiles()) {
      if (cfg.outputs[i].kind == report::OutputKind::top) {
        text += report::format_top(p, session, cfg);
        text += report::format_unresolved(p, session);
        top_written = true;
      } else {
        text += report::format_folded(p, session, cfg);
      }
    }
    if (auto e = files[i]->write(text)) {
      if (e.kind == pmclog::tools::OutputError::Kind::closed_pipe) continue;
      std::cerr << kTool << ": " << e.message << "\n";
      return 2;
    }
  }
  for (auto& f : files) {
    if (auto e = f->commit()) {
      if (e.kind == pmclog::tools::OutputError::Kind::closed_pipe) continue;
      std::cerr << kTool << ": " << e.message << "\n";
      return 2;
    }
  }
  if (!top_written)
    for (const auto& p : session.profiles()) {
      if (!p.name.empty()) std::cerr << "# Input: " << p.name << "\n";
      std::cerr << report::format_unresolved(p, session);
    }
  for (const auto& e : errors) std::cerr << kTool << ": " << pmclog::terminal_safe(e) << "\n";
  return status;
}
