// pmclog-report: option parsing and printing over the profile library (libpmcprofile).
#include <malloc.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <thread>

#include "format_options.h"
#include "options.h"
#include "output_file.h"
#include "pmclog/open.h"
#include "pmclog/text.h"
#include "print_callgraph.h"
#include "print_diff.h"
#include "print_folded.h"
#include "print_perf_script.h"
#include "print_pprof.h"
#include "print_speedscope.h"
#include "print_svg.h"
#include "print_top.h"
#include "progress.h"
#include "read_inputs.h"
#include "run_main.h"
#include "same_file.h"

namespace {

namespace tools = pmclog::tools;
using tools::diag;
using tools::Exit;
using tools::Failure;
using tools::UsageError;

constexpr const char* kTool = "pmclog-report";

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

// One output over every profile read, text (or bytes) given to `write` part by part.
void render(report::OutputKind kind, const pmcprofile::ProfileView& in,
            const report::FormatOptions& o, bool& top_written,
            const std::function<void(std::string_view)>& write) {
  using report::OutputKind;
  switch (kind) {
    case OutputKind::svg:
      return write(report::format_svg(in, o.svg));
    case OutputKind::speedscope:
      return write(report::format_speedscope(in, o.speedscope));
    case OutputKind::pprof:
      return write(report::format_pprof(in.profiles.front(), in, o.pprof));  // merged: the only profile
    default:
      break;
  }
  for (size_t k = 0; k < in.profiles.size(); ++k) {
    const pmcprofile::Profile& p = in.profiles[k];
    switch (kind) {
      case OutputKind::top:
        write(report::format_top(p, in, o.top));
        write(report::format_unresolved(p, in, o.unresolved));
        if (!o.caveats[k].empty()) write("# Note: " + o.caveats[k] + "\n");
        top_written = true;
        break;
      case OutputKind::folded:
        report::write_folded(p, in, o.folded, write);
        break;
      case OutputKind::callgraph: {
        report::CallgraphOptions c = o.callgraph;
        c.caveat = o.caveats[k];
        write(report::format_callgraph(p, in, c));
        break;
      }
      default:
        break;
    }
  }
}

// An output that failed: a closed pipe ends the run quietly, anything else with 2.
void check(const tools::OutputError& e) { tools::throw_if_failed(e); }

// Two outputs that would write one file: the second would replace the first. One regular
// file by any spelling or link (device and inode), or one path not made yet.
bool same_output(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return false;  // standard output takes every text in turn
  struct stat sa, sb;
  const bool ea = stat(a.c_str(), &sa) == 0, eb = stat(b.c_str(), &sb) == 0;
  if (ea && eb) return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea || eb) return false;
  std::error_code e1, e2;
  const auto pa = std::filesystem::weakly_canonical(std::filesystem::absolute(a), e1);
  const auto pb = std::filesystem::weakly_canonical(std::filesystem::absolute(b), e2);
  return !e1 && !e2 && pa == pb;
}

const char* kind_name(report::OutputKind k) {
  using report::OutputKind;
  switch (k) {
    case OutputKind::top: return "top";
    case OutputKind::folded: return "folded";
    case OutputKind::svg: return "svg";
    case OutputKind::pprof: return "pprof";
    case OutputKind::callgraph: return "callgraph";
    case OutputKind::perf_script: return "perf-script";
    case OutputKind::speedscope: return "speedscope";
    case OutputKind::json: return "json";
    case OutputKind::github: return "github";
    case OutputKind::junit: return "junit";
  }
  return "?";
}

// A filter that selects nothing is likely a typo: each part that no sample had is named as
// the user typed it; when every part met something but together they kept nothing, that.
void warn_unmatched_filters(const pmcprofile::Session& session, uint64_t kept) {
  const pmcprofile::Filter& f = session.options().filter;
  const pmcprofile::FilterMatches& m = session.filter_matches();
  const auto quoted = [](const std::string& s) {
    std::string q(1, '\'');
    q += pmclog::display_path(s);
    q += '\'';
    return q;
  };
  bool named = false;
  const auto warn = [&](const std::string& msg) {
    diag().warning(msg);
    named = true;
  };
  for (size_t i = 0; i < f.events.size(); ++i)
    if (!m.events[i]) warn("no event named " + quoted(f.events[i]) + " in the input");
  for (size_t i = 0; i < f.comms.size(); ++i)
    if (!m.comms[i]) warn("--comm: no process named " + quoted(f.comms[i]) + " in the input");
  for (size_t i = 0; i < f.pids.size(); ++i)
    if (!m.pids[i]) warn("--pid: no sample of process " + std::to_string(f.pids[i]) + " in the input");
  for (size_t i = 0; i < f.tids.size(); ++i)
    if (!m.tids[i]) warn("--tid: no sample of thread " + std::to_string(f.tids[i]) + " in the input");
  for (size_t i = 0; i < f.cpus.size(); ++i)
    if (!m.cpus[i]) warn("--cpu: no sample taken on CPU " + std::to_string(f.cpus[i]) + " in the input");
  if (m.samples == 0) return;  // a log without samples: nothing for a filter to meet
  if (f.mode == pmcprofile::Filter::Mode::user && !m.user)
    warn("--user-only: no sample taken in user mode in the input");
  if (f.mode == pmcprofile::Filter::Mode::kernel && !m.kernel)
    warn("--kernel-only: no sample taken in kernel mode in the input");
  const auto secs = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return std::string(b);
  };
  if (f.from && !m.from)
    warn("--from " + secs(*f.from) + ": no sample that late in the input (seconds from the log's first record)");
  if (f.to && !m.to)
    warn("--to " + secs(*f.to) + ": no sample that early in the input (seconds from the log's first record)");
  const bool filtered = !f.events.empty() || !f.comms.empty() || !f.pids.empty() ||
                        !f.tids.empty() || !f.cpus.empty() ||
                        f.mode != pmcprofile::Filter::Mode::all || f.from || f.to;
  if (filtered && !named && kept == 0)
    diag().warning("the filters together kept none of the " + std::to_string(m.samples) +
                   " samples");
}

int body(int argc, char** argv) {
  report::Config cfg;
  if (!report::parse_options(argc, argv, cfg)) return 0;

  // Outputs first: one that is an input, or two that are one file, are refused before
  // anything is read. A --by-file pprof output is a folder, whose files are named once the
  // inputs are read.
  auto is_folder = [&](const report::Output& o) {
    return o.kind == report::OutputKind::pprof && cfg.profile.by_file;
  };
  std::vector<std::unique_ptr<tools::OutputFile>> files(cfg.outputs.size());
  tools::OutputOptions oo;
  oo.inputs = cfg.inputs;
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    const auto& o = cfg.outputs[i];
    // gzip data on a terminal is noise, as gzip itself refuses.
    if (o.kind == report::OutputKind::pprof && o.file == "-" && isatty(STDOUT_FILENO) == 1)
      throw UsageError("--format pprof is gzip data: give -o FILE or redirect standard output");
    for (size_t j = 0; j < i; ++j)
      if (same_output(cfg.outputs[j].file, o.file))
        throw UsageError(std::string("-o/--output: --format ") + kind_name(cfg.outputs[j].kind) +
                         " and " + kind_name(o.kind) + " would both write '" +
                         pmclog::display_path(o.file) + "': give each its own file");
    if (is_folder(o)) continue;
    if (auto e = tools::refuse_same_file(o.file, cfg.inputs)) throw Failure(Exit::usage, e.message);
  }
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    const auto& o = cfg.outputs[i];
    if (is_folder(o)) {
      struct stat st;
      errno = 0;
      if (stat(o.file.c_str(), &st) != 0 ? mkdir(o.file.c_str(), 0777) != 0 && errno != EEXIST
                                         : !S_ISDIR(st.st_mode))
        throw Failure(Exit::io, pmclog::display_path(o.file) +
                                    ": not a folder (--format pprof --by-file writes one file "
                                    "per input): " +
                                    (errno != 0 ? std::strerror(errno) : "exists"));
      continue;
    }
    files[i] = std::make_unique<tools::OutputFile>();
    if (auto e = files[i]->open(o.file, oo)) throw Failure(Exit::io, e.message);
  }

  cfg.libpmc = pmcprofile::load_libpmc(cfg.profile.locate.sysroot, cfg.libpmc_file);
  if (!cfg.libpmc.error.empty()) throw Failure(Exit::io, cfg.libpmc.error);
  if (cfg.libpmc.events) cfg.profile.pmu_events = &*cfg.libpmc.events;
  cfg.profile.pmu_events_missing = cfg.libpmc.missing;

  // perf-script on a terminal is printed while the logs are read: no progress line in it.
  bool script_on_terminal = false;
  for (const auto& o : cfg.outputs)
    script_on_terminal = script_on_terminal || (o.kind == report::OutputKind::perf_script &&
                                                o.file == "-" && isatty(STDOUT_FILENO) == 1);
  tools::Progress progress(cfg.progress && !script_on_terminal);
  cfg.profile.progress = [&](uint64_t d, uint64_t t) { progress.update(d, t); };
  pmcprofile::Session session(cfg.profile);
  // perf-script's text grows with the samples: it is written as the logs are read, input
  // after input, so that nothing is kept per sample.
  std::vector<std::unique_ptr<report::PerfScriptWriter>> scripts(cfg.outputs.size());
  std::vector<tools::OutputError> script_errors(cfg.outputs.size());
  std::function<void(const pmcprofile::NamedSample&)> each_sample;
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    if (cfg.outputs[i].kind != report::OutputKind::perf_script) continue;
    scripts[i] = std::make_unique<report::PerfScriptWriter>(
        report::perf_script_options(cfg), [&, i](std::string_view t) {
          if (!script_errors[i]) script_errors[i] = files[i]->write(t.data(), t.size());
        });
    each_sample = [&](const pmcprofile::NamedSample& smp) {
      for (auto& w : scripts)
        if (w) w->sample(smp);
    };
  }
  Exit status = Exit::ok;
  std::vector<std::string> errors;
  bool stopped_by_damage = false;
  bool any_log = false;  // an input had records: there is a report, if only "# No samples."
  uint64_t kept = 0;
  std::vector<report::CutStacks> cut_by_input;  // stacks that look cut, input by input
  // What each input's reading says, in input order, however the inputs were read.
  const auto take = [&](const std::string& in, const pmcprofile::InputReport& r) {
    if (r.stack_cap) {  // the profile is a part of the logs: no output at all
      diag().error(r.error);
      throw Failure(Exit::bad_data,
                    "raise the cap with --max-stacks N (0: no cap); memory grows with distinct "
                    "stacks");
    }
    any_log = any_log || (r.opened && !r.empty_input);
    kept += r.kept;
    cut_by_input.emplace_back().add(r);
    for (const auto& n : r.notes) diag().note_once(n);  // once per run, whatever the inputs
    if (!r.error.empty()) {
      const Exit s = r.unreadable ? Exit::io : Exit::bad_data;
      if (tools::code(s) > tools::code(status)) status = s;
      stopped_by_damage = stopped_by_damage || (r.damaged != 0 && !cfg.profile.keep_going);
      errors.push_back(r.damaged != 0 && cfg.profile.keep_going
                           ? pmclog::input_display_name(in) + ": " + std::to_string(r.damaged) +
                                 " damaged places skipped (" + std::to_string(r.skipped_bytes) +
                                 " bytes); first: " + r.error
                           : r.error);
    }
  };
  // perf-script prints samples in input order as they are read: one input at a time.
  const unsigned jobs = cfg.jobs != 0 ? cfg.jobs : std::max(1u, std::thread::hardware_concurrency());
  // --diff: the new logs go into a second profile, in the same tables as the base's.
  const auto begin_side = [&](size_t k) {
    if (cfg.diff && k == cfg.diff_base) session.begin_profile();
  };
  if (jobs > 1 && cfg.inputs.size() > 1 && !each_sample) {
    progress.set_label("reading " + std::to_string(cfg.inputs.size()) + " inputs");
    report::read_in_parallel(session, cfg.profile, cfg.inputs, jobs, begin_side, take);
    progress.clear();
  } else {
    for (size_t k = 0; k < cfg.inputs.size(); ++k) {
      const std::string& in = cfg.inputs[k];
      begin_side(k);
      progress.set_label("reading " + pmclog::input_display_name(in));
      const pmcprofile::InputReport r =
          each_sample ? session.add_log_named(in, each_sample) : session.add_log(in);
      progress.clear();
      take(in, r);
    }
  }
  diag().raise(status);
  // The errors come last, where they are seen; -k is worth saying once after them.
  const auto report_errors = [&] {
    for (const auto& e : errors) diag().error(e);
    if (stopped_by_damage)
      diag().note_once("-k/--keep-going reads on past damage, from the next record that "
                       "looks whole (the exit status is still 1)");
  };
  if (!any_log) {  // nothing to report on: no output file is left behind
    report_errors();
    return tools::code(status);
  }
  warn_unmatched_filters(session, kept);
  // Object files first: their lookups overlap /proc/kallsyms being read on its own thread.
  session.look_up_symbols_ahead();
  session.symbolize();
  // perf-script's last piece, before any other output: on standard output its text comes first.
  for (auto& w : scripts)
    if (w) w->finish();
  const pmcprofile::ProfileView in = session.view();
  const report::FormatOptions fo = report::format_options(cfg, in, cut_by_input);
  if (cfg.diff) {
    const report::DiffReport d = report::make_diff(cfg, in);
    for (size_t i = 0; i < cfg.outputs.size(); ++i)
      check(files[i]->write(
          cfg.outputs[i].kind == report::OutputKind::pprof
              ? report::format_pprof_diff(in.profiles.at(0), in.profiles.at(1), in, fo.pprof)
          : cfg.outputs[i].kind == report::OutputKind::svg
              ? report::format_svg_diff(in, fo.svg, cfg.diff_base, cfg.alpha)
              : report::format_diff(cfg.outputs[i].kind, d, in, cfg, fo.folded)));
    for (auto& f : files)
      if (f) check(f->commit());
    report_errors();
    for (const auto& t : d.tripped)
      for (size_t r : t.rows) diag().error(report::describe_tripped(*t.gate, d.result.rows[r], in, cfg));
    // A broken run (a damaged or missing log) says so before the gate: its figures are partial.
    if (status == Exit::ok && d.failed()) return tools::code(Exit::gate);
    return tools::code(status);
  }

  bool top_written = false;
  for (size_t i = 0; i < cfg.outputs.size(); ++i) {
    const auto& o = cfg.outputs[i];
    if (is_folder(o)) {
      const auto& ps = in.profiles;
      const auto paths = per_input_paths(o.file, ps);
      for (size_t k = 0; k < ps.size(); ++k) {
        if (auto e = tools::refuse_same_file(paths[k], cfg.inputs))
          throw Failure(Exit::usage, e.message);
        report::PprofOptions own = fo.pprof;  // the comment is this input's
        own.comments.clear();
        if (!fo.caveats[k].empty()) own.comments.push_back(fo.caveats[k]);
        check(tools::write_whole_file(paths[k], report::format_pprof(ps[k], in, own), oo));
      }
      continue;
    }
    if (scripts[i]) {  // written while reading
      check(script_errors[i]);
      continue;
    }
    render(o.kind, in, fo, top_written,
           [&f = *files[i]](std::string_view s) { check(f.write(s.data(), s.size())); });
  }
  for (auto& f : files)
    if (f) check(f->commit());
  if (!top_written)
    for (const auto& p : in.profiles) {
      if (!p.name.empty()) diag().line("# Input: " + p.name);
      const std::string text = report::format_unresolved(p, in, fo.unresolved);
      for (size_t at = 0, nl; at < text.size(); at = nl + 1) {
        nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        diag().line(text.substr(at, nl - at));
      }
    }
  report_errors();
  return tools::code(status);
}

}  // namespace

int main(int argc, char** argv) {
  // Memory freed stays with the process until it exits: each input's session under -j, and
  // the large tables of a report, would otherwise go back to the kernel and be faulted in
  // (zeroed) again by the next input. A report is short-lived; its peak is what it holds.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  return pmclog::tools::run_main({kTool}, argc, argv, body);
}
