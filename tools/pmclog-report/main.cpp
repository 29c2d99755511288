// pmclog-report: option parsing and printing over the profile library (libpmcprofile).
#include <signal.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <set>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>

#include "options.h"
#include "output_file.h"
#include "pmclog/open.h"
#include "pmclog/text.h"
#include "print_callgraph.h"
#include "print_folded.h"
#include "print_perf_script.h"
#include "print_pprof.h"
#include "print_speedscope.h"
#include "print_svg.h"
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

// --by-file pprof: one FOLDER/NAME.pb.gz per input, NAME the input's base name ("~2" on
// a second input of the same name, as pmcstat -g names its gmon files).
std::vector<std::string> per_input_paths(const std::string& folder,
                                         const std::vector<pmcprofile::Profile>& ps) {
  std::vector<std::string> out;
  std::set<std::string> taken;
  for (const auto& p : ps) {
    std::string base = p.name.substr(p.name.find_last_of('/') + 1);
    if (base.empty() || base == "." || base == "..") base = "input";
    std::string name = base;
    for (int n = 2; !taken.insert(name).second; ++n) name = base + "~" + std::to_string(n);
    out.push_back(folder + "/" + name + ".pb.gz");
  }
  return out;
}

// The text (or bytes) of one output over every profile of the session.
std::string render(report::OutputKind kind, pmcprofile::Session& session, const report::Config& cfg,
                   bool& top_written) {
  using report::OutputKind;
  const auto& ps = session.profiles();
  switch (kind) {
    case OutputKind::svg:
      return report::format_svg(ps, session, cfg);
    case OutputKind::speedscope:
      return report::format_speedscope(ps, session, cfg);
    case OutputKind::pprof:
      return report::format_pprof(ps.front(), session, cfg);  // merged: the only profile
    default:
      break;
  }
  std::string text;
  for (const auto& p : ps) {
    switch (kind) {
      case OutputKind::top:
        text += report::format_top(p, session, cfg);
        text += report::format_unresolved(p, session);
        top_written = true;
        break;
      case OutputKind::folded:
        text += report::format_folded(p, session, cfg);
        break;
      case OutputKind::callgraph:
        text += report::format_callgraph(p, session, cfg);
        break;
      default:
        break;
    }
  }
  return text;
}

bool report_write_error(const pmclog::tools::OutputError& e) {
  if (!e || e.kind == pmclog::tools::OutputError::Kind::closed_pipe) return false;
  std::cerr << kTool << ": " << e.message << "\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  report::Config cfg;
  const int st = report::parse_options(argc, argv, cfg);
  if (st >= 0) return st;
  signal(SIGPIPE, SIG_IGN);
  pmclog::tools::install_cleanup_signal_handlers();

  // Outputs first: one that is an input is refused before anything is read.
  // A --by-file pprof output is a folder, whose files are named once the inputs are read.
  auto is_folder = [&](const report::Output& o) {
    return o.kind == report::OutputKind::pprof && cfg.profile.by_file;
  };
  std::vector<std::unique_ptr<pmclog::tools::OutputFile>> files(cfg.outputs.size());
  pmclog::tools::OutputOptions oo;
  oo.inputs = cfg.inputs;
  for (const auto& o : cfg.outputs) {
    // gzip data on a terminal is noise, as gzip itself refuses.
    if (o.kind == report::OutputKind::pprof && o.file == "-" && isatty(STDOUT_FILENO) == 1) {
      std::cerr << kTool << ": --output pprof is gzip data: give -o FILE or redirect standard "
                           "output\nTry 'pmclog-report --help'.\n";
      return 2;
    }
    if (is_folder(o)) continue;
    if (auto e = pmclog::tools::refuse_same_file(o.file, cfg.inputs)) {
      std::cerr << kTool << ": " << e.message << "\n";
      return 2;
    }
  }
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    const auto& o = cfg.outputs[i];
    if (is_folder(o)) {
      struct stat st;
      errno = 0;
      if (stat(o.file.c_str(), &st) != 0 ? mkdir(o.file.c_str(), 0777) != 0 && errno != EEXIST
                                         : !S_ISDIR(st.st_mode)) {
        std::cerr << kTool << ": " << pmclog::display_path(o.file)
                  << ": not a folder (--output pprof --by-file writes one file per input): "
                  << (errno != 0 ? std::strerror(errno) : "exists") << "\n";
        return 2;
      }
      continue;
    }
    files[i] = std::make_unique<pmclog::tools::OutputFile>();
    if (auto e = files[i]->open(o.file, oo)) {
      std::cerr << kTool << ": " << e.message << "\n";
      return 2;
    }
  }

  cfg.libpmc = pmcprofile::load_libpmc(cfg.profile.locate.sysroot, cfg.libpmc_file);
  if (!cfg.libpmc.error.empty()) {
    std::cerr << kTool << ": " << pmclog::terminal_safe(cfg.libpmc.error) << "\n";
    return 2;
  }
  if (cfg.libpmc.events) cfg.profile.pmu_events = &*cfg.libpmc.events;
  cfg.profile.pmu_events_missing = cfg.libpmc.missing;

  // perf-script on a terminal is printed while the logs are read: no progress line in it.
  bool script_on_terminal = false;
  for (const auto& o : cfg.outputs)
    script_on_terminal = script_on_terminal || (o.kind == report::OutputKind::perf_script &&
                                                o.file == "-" && isatty(STDOUT_FILENO) == 1);
  Progress progress(cfg.progress && !script_on_terminal);
  cfg.profile.progress = [&](uint64_t d, uint64_t t) { progress.update(d, t); };
  pmcprofile::Session session(cfg.profile);
  // perf-script's text grows with the samples: it is written as the logs are read, input
  // after input, so that nothing is kept per sample.
  std::vector<std::unique_ptr<report::PerfScriptWriter>> scripts(cfg.outputs.size());
  std::vector<pmclog::tools::OutputError> script_errors(cfg.outputs.size());
  std::function<void(const pmcprofile::Sample&)> each_sample;
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    if (cfg.outputs[i].kind != report::OutputKind::perf_script) continue;
    scripts[i] = std::make_unique<report::PerfScriptWriter>(
        session, cfg, [&, i](std::string_view t) {
          if (!script_errors[i]) script_errors[i] = files[i]->write(t.data(), t.size());
        });
    each_sample = [&](const pmcprofile::Sample& smp) {
      for (auto& w : scripts)
        if (w) w->sample(smp);
    };
  }
  int status = 0;
  std::vector<std::string> errors;
  std::set<std::string> noted;
  bool any_log = false;  // an input had records: there is a report, if only "# No samples."
  for (const auto& in : cfg.inputs) {
    progress.set_input(in);
    const pmcprofile::InputReport r = session.add_log(in, each_sample);
    progress.clear();
    if (r.stack_cap) {  // the profile is a part of the logs: no output at all
      std::cerr << kTool << ": " << pmclog::terminal_safe(r.error) << "\n"
                << kTool << ": raise the cap with --max-stacks N (0: no cap); memory grows "
                   "with distinct stacks\n";
      return 1;
    }
    any_log = any_log || (r.opened && !r.empty_input);
    for (const auto& n : r.notes)  // once per run, whatever the number of inputs
      if (noted.insert(n).second) std::cerr << kTool << ": note: " << pmclog::terminal_safe(n) << "\n";
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
  // perf-script's last piece, before any other output: on standard output its text comes first.
  for (auto& w : scripts)
    if (w) w->finish();

  bool top_written = false;
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    const auto& o = cfg.outputs[i];
    if (is_folder(o)) {
      const auto& ps = session.profiles();
      const auto paths = per_input_paths(o.file, ps);
      for (size_t k = 0; k < ps.size(); ++k) {
        if (auto e = pmclog::tools::refuse_same_file(paths[k], cfg.inputs)) {
          std::cerr << kTool << ": " << e.message << "\n";
          return 2;
        }
        if (report_write_error(pmclog::tools::write_whole_file(
                paths[k], report::format_pprof(ps[k], session, cfg), oo)))
          return 2;
      }
      continue;
    }
    if (scripts[i]) {  // written while reading
      if (report_write_error(script_errors[i])) return 2;
      continue;
    }
    if (report_write_error(files[i]->write(render(o.kind, session, cfg, top_written)))) return 2;
  }
  for (auto& f : files)
    if (f && report_write_error(f->commit())) return 2;
  if (!top_written)
    for (const auto& p : session.profiles()) {
      if (!p.name.empty()) std::cerr << "# Input: " << p.name << "\n";
      std::cerr << report::format_unresolved(p, session);
    }
  for (const auto& e : errors) std::cerr << kTool << ": " << pmclog::terminal_safe(e) << "\n";
  return status;
}
