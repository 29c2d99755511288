// pmclog-dump: prints hwpmc(4) logs of every generation as text, pmcstat-compatible text,
// JSON Lines or annotated words, or summarizes them. Several files are dumped one
// after the other: text forms get a `==> NAME <==` line before each, as head(1)
// and tail(1) print, JSON Lines records a "file" member, summaries one section each.
#include <sys/stat.h>

#include <cstdint>
#include <set>

#include "diagnostics.h"
#include "formatter.h"
#include "options.h"
#include "pmclog/open.h"
#include "pmclog/text.h"
#include "pmcprofile/pmu_events.h"
#include "progress.h"
#include "run_main.h"
#include "select.h"
#include "stats.h"

namespace dump {

namespace {

namespace tools = pmclog::tools;
using tools::Exit;

constexpr std::string_view kTool = "pmclog-dump";

// The input's size when the reader's offset can be set against it (a regular uncompressed
// file), else 0: the progress line then counts megabytes.
uint64_t input_size(const pmclog::OpenLog& in) {
  struct stat st {};
  if (in.compression != pmclog::Compression::none || in.name == "-") return 0;
  if (::stat(in.name.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<uint64_t>(st.st_size);
}

// Damage a resynchronization may get past (a bad record), not a failed read or a damaged
// compressed stream, after which there are no more bytes to look at.
bool record_damage(const pmclog::Error& e) {
  return e.code != pmclog::Errc::io && e.code != pmclog::Errc::compressed_damaged;
}

void show_abi(const pmclog::OpenLog& in, Output& out) {
  out.buf += in.display_name + ": " + pmclog::describe(in.detection.abi);
  out.buf += std::string(" (compression: ") + pmclog::compression_name(in.compression) + ")\n";
  for (const auto& e : in.detection.evidence) out.buf += "  " + e + "\n";
  if (const auto& c = in.detection.container) {
    out.buf += "  " + pmclog::describe_container_header(*c) + "\n";
    for (const auto& i : c->infos)
      out.buf += "  " + pmclog::describe_container_info(i, c->byte_order) + "\n";
    for (const auto& issue : in.detection.container_issues)
      out.buf += "  note: " + std::string(pmclog::container_problem_id(issue.problem)) + ": " +
                 issue.message + "\n";
  }
  if (in.detection.width_assumed)
    out.buf += "  note: no bytes settled the address width; use --address-width if it is wrong\n";
  if (in.detection.generation_assumed)
    out.buf += "  note: the generation was assumed; use --generation if it is wrong\n";
}

class Driver {
 public:
  Driver(const Options& o, Output& out, const pmcprofile::LibpmcOption& libpmc)
      : o_(o), out_(out), libpmc_(libpmc), several_(o.files.size() > 1) {
    switch (o.format) {
      case Format::text: fmt_ = make_text_formatter(); break;
      case Format::pmcstat: fmt_ = make_pmcstat_formatter(); break;
      case Format::jsonl: fmt_ = make_jsonl_formatter(several_); break;
      case Format::explain: fmt_ = make_explain_formatter(); break;
    }
  }

  int run_file(const std::string& name) {
    auto opened = pmclog::open_log(name, o_.hint);
    if (!opened) {
      const auto& e = opened.error();
      // the library's message starts with the display name ("(stdin)" for "-")
      const std::string shown = pmclog::input_display_name(name);
      tools::diag().error(pmclog::path_message(e.message, shown, shown));
      return code(e.code == pmclog::Errc::io ? Exit::io : Exit::bad_data);
    }
    pmclog::OpenLog& in = opened.value();
    if (o_.show_abi) {  // every line names the file: no header needed
      if (in.detection.empty) {  // an ABI would be invented: there are no bytes to tell it
        report(in.display_name + ": " + pmclog::empty_log_message(in));
        return code(Exit::bad_data);
      }
      show_abi(in, out_);
      return 0;
    }
    ++read_;
    start_section(in.display_name);
    LogState st;
    st.file = name == "-" ? "(stdin)" : name;
    st.abi = in.reader->abi();
    if (in.detection.container) st.container = &*in.detection.container;
    if (libpmc_.events) st.pmu = &*libpmc_.events;
    st.pmu_missing = libpmc_.missing;
    st.noted = &noted_;
    // A summary prints nothing until the end: a long one shows how far it got.
    tools::Progress progress(o_.stats);
    progress.set_label("reading " + pmclog::display_path(st.file));
    const int status = o_.stats ? loop<true>(*in.reader, st, nullptr, progress, input_size(in))
                                : loop<false>(*in.reader, st, fmt_.get(), progress, 0);
    if (out_.error()) {  // the reader went away, or the output failed (run_main reports it)
      tools::diag().raise(static_cast<Exit>(status));
      throw tools::ClosedPipe{};
    }
    return status;
  }

  // After every file: a selection that matched nothing anywhere says so.
  void finish() {
    // (not when damage stopped a file: the records after it were not looked at)
    if (read_ > 0 && !cut_short_ && o_.select.any() && matched_ == 0 &&
        o_.select.head.value_or(1) > 0)
      tools::diag().warning("no record matched " + o_.select.text);
  }

 private:
  // Messages and file names from the log are escaped by diag().
  void report(const std::string& line) { tools::diag().error(line); }

  // The notes LogState::allocation found while a line was half-built in the output buffer.
  void emit_notes(LogState& st) {
    for (const auto& n : st.pending_notes) tools::diag().note(n);
    st.pending_notes.clear();
  }

  // With several files, where one file's output starts. Text forms: head(1)'s header and a
  // blank line between files. --stats text sections open with their own "file:" line, so a
  // blank line is enough; JSON forms name the file in every object and need nothing.
  void start_section(const std::string& shown) {
    if (!several_) return;
    const bool json = o_.stats ? o_.stats_json : o_.format == Format::jsonl;
    if (json) return;
    if (sections_++ > 0) out_.buf += '\n';
    if (!o_.stats) out_.buf += "==> " + shown + " <==\n";
  }

  // kStats: --stats (fmt is null), else the records go to fmt. A template, so that the
  // summary's per-record loop has no formatter branches and inlines whole.
  template <bool kStats>
  int loop(pmclog::LogReader& reader, LogState& st, Formatter* fmt, tools::Progress& progress,
           uint64_t size) {
    Stats stats(o_.top.value_or(o_.stats_json ? 0 : 10));  // JSON: every row unless --top
    if (fmt) fmt->begin(st, out_);
    if (fmt && st.container) fmt->container(*st.container, st, out_);
    int status = 0;
    uint64_t shown = 0;
    pmclog::Error e;
    const bool pmcstat = o_.format == Format::pmcstat && !o_.stats;
    const std::string file = pmclog::display_path(st.file);
    bool empty = false;  // the input ended at offset 0
    const bool filtered = o_.select.any();  // without options every record is selected
    const bool stop_at_closelog = pmcstat && !st.abi.legacy();
    const uint64_t head = o_.select.head.value_or(UINT64_MAX);
    const uint64_t to_offset = o_.select.to_offset.value_or(UINT64_MAX);
    const pmclog::Generation generation = st.abi.generation;
    // What every decoded record goes through; false stops the reading (--head, --to-offset,
    // pmcstat's CLOSELOG). Through for_each rather than next(): the common records are
    // decoded inline in its loop, with no call per record (next() was a fifth of --stats).
    bool stopped = false;
    const bool track = progress.on();
    uint32_t tick = 0;
    auto each = [&, filtered, stop_at_closelog, head, to_offset, generation, track](
                    const pmclog::Record& r) {
      if (track && (tick++ & 0x3FFF) == 0) [[unlikely]]  // from the first record on
        progress.update(r.offset, size);
      // records are in file order: nothing at or past --to-offset can be selected
      if (r.offset >= to_offset) [[unlikely]] {
        stopped = true;
        return false;
      }
      st.observe(r);
      if constexpr (kStats) stats.observe(r, st);  // names for later samples, from every record
      // libpmc of the modern era returns EOF at CLOSELOG (format.md §12), so pmcstat stops.
      if (stop_at_closelog && r.kind == pmclog::Kind::closelog) {
        stopped = true;
        return false;
      }
      if (filtered && !selected(o_.select, r, generation)) return true;
      ++shown;
      if constexpr (kStats) {
        stats.add(r, st);
      } else {
        fmt->record(r, st, out_);
        if (!st.pending_notes.empty()) [[unlikely]] emit_notes(st);
        if (out_.error()) [[unlikely]] {  // nobody reads on: stop
          stopped = true;
          return false;
        }
      }
      if (shown >= head) {
        stopped = true;
        return false;
      }
      return true;
    };
    // A summary of every record (no selection, no --head): the same steps without the
    // checks that cannot stop or skip anything, inlined into for_each's loop (forced: GCC
    // 12 kept it out of line, a call per record, once Stats::add had the shape tally).
    auto every = [&](const pmclog::Record& r) __attribute__((always_inline)) {
      st.observe_values(r);
      stats.observe(r, st);
      stats.add(r, st);
    };
    // (a progress line needs the general step's per-record hook)
    const bool whole = kStats && !filtered && !o_.select.head && !track;
    for (;;) {
      if (o_.select.head && shown >= *o_.select.head) break;
      if (o_.select.to_offset && reader.offset() >= *o_.select.to_offset) break;
      const pmclog::Step step = whole ? reader.for_each(every, e) : reader.for_each(each, e);
      if (stopped) break;
      if (step == pmclog::Step::end) {
        empty = reader.offset() == (st.container ? st.container->size : 0);
        break;
      }
      // Step::error: the reader stays at the bad record
      if (o_.select.to_offset && reader.offset() >= *o_.select.to_offset) break;
      emit_notes(st);
      // a failed read is an I/O error (2); damage, also in compressed data, bad data (1)
      status = std::max(status, code(e.code == pmclog::Errc::io ? Exit::io : Exit::bad_data));
      if (fmt) fmt->data_error(e, st, out_);
      else stats.error(e);
      report(file + ": " + e.message);
      if (!record_damage(e)) {  // no bytes after it to resynchronize on
        cut_short_ = true;
        break;
      }
      if (!o_.keep_going) {
        cut_short_ = true;
        tools::diag().note_once("stopped at the first damage; -k/--keep-going skips it and goes on");
        break;
      }
      const pmclog::SkippedRange range = reader.skip_or_resync();
      if (!fmt) stats.skipped(range);
      report(file + ": skipped bytes " + std::to_string(range.from) + ".." +
             std::to_string(range.to) + " (" + std::to_string(range.to - range.from) +
             " bytes), going on at offset " + std::to_string(range.to));
      if (range.to == range.from) break;  // nothing left to step over
    }
    progress.clear();
    emit_notes(st);
    matched_ += shown;
    if (empty) {  // no summary either: its ABI line would be invented
      report(file + ": " + pmclog::empty_log_message(st.container, 0));
      return code(Exit::bad_data);
    }
    if (fmt) fmt->end(st, out_);
    else if (o_.stats_json) print_stats_json(stats.view(st), st, out_);
    else print_stats_text(stats.view(st), st, out_);
    return status;
  }

  const Options& o_;
  Output& out_;
  uint64_t read_ = 0;     // files whose records were read
  uint64_t matched_ = 0;  // records selected in every file
  bool cut_short_ = false;  // damage stopped a file before its end
  const pmcprofile::LibpmcOption& libpmc_;
  std::set<std::string> noted_;  // notes printed in this run
  std::unique_ptr<Formatter> fmt_;
  const bool several_;  // more than one file was given
  int sections_ = 0;    // sections begun so far
};

}  // namespace

}  // namespace dump

int main(int argc, char** argv) {
  return pmclog::tools::run_main({dump::kTool}, argc, argv, [](int ac, char** av) {
    namespace tools = pmclog::tools;
    const auto opts = dump::parse_options(ac, av);
    if (!opts) return 0;  // --help or --version
    const pmcprofile::LibpmcOption libpmc = pmcprofile::load_libpmc(opts->sysroot, opts->libpmc);
    if (!libpmc.error.empty()) throw tools::Failure(tools::Exit::io, libpmc.error);
    dump::Driver driver(*opts, tools::standard_output(), libpmc);
    int status = 0;
    for (const auto& f : opts->files) {
      status = std::max(status, driver.run_file(f));
      tools::diag().raise(static_cast<tools::Exit>(status));  // kept if a later file's reader goes away
    }
    driver.finish();
    return status;
  });
}
