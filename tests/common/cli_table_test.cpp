// One table of command lines over the five tools, each run as a subprocess in a scratch folder
// of small inputs: the exit status, the form of what lands on standard error, and that no
// file in the folder changed or appeared unless the case says so. The table holds the
// hostile cases (cancelling options, stray arguments, terminals, full devices, damaged
// inputs) and at least one valid use of every long option each tool's --help lists: a new
// option without a case fails OptionCoverage.
//
// Message forms (tools/common/diagnostics.h):
//   usage    exactly "TOOL: MESSAGE" then "Try 'TOOL --help'."; the case's keywords are in
//            MESSAGE (for a conflict: both options, long form)
//   error    every line "TOOL: ..." (or a report section the case allows)
//   either   an error or a usage error (a refusal either form may carry)
//   quiet_or_error   nothing, or the error form (a finding may be a report line instead)
//   ok       no "TOOL: " line but warnings and notes
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

using namespace pmclog_test;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------
// The table's vocabulary.

enum class In { devnull, closed, file, pty };
enum class Out { pipe, file, full, pty };
enum class Form { ok, usage, error, either, quiet_or_error };
enum class Warn { any, required, forbidden };

struct Case {
  const char* id;                     // the test's name: unique, [a-z0-9_]
  const char* tool;                   // "pmclog-dump"
  std::vector<std::string> args;      // names are relative to the scratch folder
  std::vector<int> status;            // the accepted exit statuses (usually one)
  Form form = Form::ok;
  std::vector<std::string> keywords;  // ECMAScript regexes, case-insensitive, each must match
                                      // the usage message / the stderr text
  In in = In::devnull;
  std::string in_file;                // In::file: a scratch-folder name
  Out out = Out::pipe;
  std::vector<std::string> creates;   // new names the run must leave; any other new name fails
  Warn warn = Warn::any;
  std::string sections;               // regex: stderr lines that are no error (a report
                                      // section without the prefix, a summary)
  bool needs_perf = false;            // records for real: skipped where perf_event_open fails
  int timeout_s = 30;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.id; }

const char* const kTools[] = {"pmclog-dump", "pmclog-validate", "pmclog-write", "pmclog-record",
                              "pmclog-report"};

std::string bin(const std::string& tool) {
  if (tool == "pmclog-dump") return PMCLOG_DUMP_BIN;
  if (tool == "pmclog-validate") return PMCLOG_VALIDATE_BIN;
  if (tool == "pmclog-write") return PMCLOG_WRITE_BIN;
  if (tool == "pmclog-record") return PMCLOG_RECORD_BIN;
  return PMCLOG_REPORT_BIN;
}

constexpr const char* kDump = "pmclog-dump";
constexpr const char* kValidate = "pmclog-validate";
constexpr const char* kWrite = "pmclog-write";
constexpr const char* kRecord = "pmclog-record";
constexpr const char* kReport = "pmclog-report";

// Shorthands for the table.
Case ok(const char* id, const char* tool, std::vector<std::string> args) {
  Case c;
  c.id = id;
  c.tool = tool;
  c.args = std::move(args);
  c.status = {0};
  return c;
}
Case usage(const char* id, const char* tool, std::vector<std::string> args,
           std::vector<std::string> keywords) {
  Case c = ok(id, tool, std::move(args));
  c.status = {2};
  c.form = Form::usage;
  c.keywords = std::move(keywords);
  return c;
}
Case fails(const char* id, const char* tool, std::vector<std::string> args, int status,
           std::vector<std::string> keywords = {}) {
  Case c = ok(id, tool, std::move(args));
  c.status = {status};
  c.form = Form::error;
  c.keywords = std::move(keywords);
  return c;
}
Case with(Case c, auto&& change) {
  change(c);
  return c;
}

// The scratch folder every case starts from (made once, see Fixtures):
//   log.pmclog      pmclog-write synth -n 200 (M10, 64-bit little-endian)
//   l3.pmclog       fixtures/L3-64-le.pmclog          m10.pmclog  fixtures/M10-64-le.pmclog
//   trunc.pmclog    log.pmclog cut inside its last records (damaged: 1)
//   badmagic.pmclog log.pmclog with one record's magic byte broken (1)
//   log.pmclog.gz   gzip of log.pmclog                cut.pmclog.gz  that, its tail cut off
//   log.jsonl       pmclog-dump --format=jsonl log.pmclog
//   true.jsonl / null.jsonl   log.jsonl with one integer replaced by true / null
//   two.jsonl       the dumps of l3.pmclog and m10.pmclog, one after the other
//   multi.jsonl     pmclog-dump --format=jsonl l3.pmclog m10.pmclog (lines carry "file")
//   folder/         an empty folder
//   text.txt        a line of text
const std::string kMissing = "nosuch.pmclog";

// The table. Expected behaviour is that of the fixed tools (one command-line language).
std::vector<Case> table() {
  std::vector<Case> t;
  auto add = [&](Case c) { t.push_back(std::move(c)); };
  const std::string nospace = "No space left on device";

  // ----- pmclog-dump
  add(ok("dump_text", kDump, {"log.pmclog"}));
  add(ok("dump_jsonl", kDump, {"--format=jsonl", "log.pmclog"}));
  add(ok("dump_pmcstat_short", kDump, {"-f", "pmcstat", "l3.pmclog"}));
  add(ok("dump_explain_head", kDump, {"--explain", "--head", "3", "log.pmclog"}));
  add(ok("dump_stats_top", kDump, {"--stats", "--top", "3", "log.pmclog"}));
  add(ok("dump_show_abi", kDump, {"--show-abi", "log.pmclog"}));
  add(ok("dump_gzip", kDump, {"log.pmclog.gz"}));
  add(ok("dump_selection", kDump,
         {"--type", "callchain", "--pid", "100", "--pmcid", "0x200", "--cpu", "0",
          "--from-offset", "0", "--to-offset", "100000", "log.pmclog"}));
  add(ok("dump_abi", kDump,
         {"--generation", "M10", "--address-width", "8", "--address-slot", "8", "--byte-order",
          "little", "--time-width", "8", "log.pmclog"}));
  add(ok("dump_sysroot", kDump, {"--sysroot", "folder", "log.pmclog"}));
  add(with(ok("dump_stdin_file", kDump, {"-"}), [](Case& c) { c.in = In::file; c.in_file = "log.pmclog"; }));
  add(with(ok("dump_to_terminal", kDump, {"--head", "5", "log.pmclog"}), [](Case& c) { c.out = Out::pty; }));
  add(with(ok("dump_to_file", kDump, {"log.pmclog"}), [](Case& c) { c.out = Out::file; }));
  add(ok("dump_help", kDump, {"--help"}));
  add(ok("dump_version", kDump, {"--version"}));
  add(usage("dump_jsonl_explain", kDump, {"--format=jsonl", "--explain", "log.pmclog"},
            {"--format", "--explain"}));
  add(usage("dump_show_abi_stats", kDump, {"--show-abi", "--stats", "log.pmclog"},
            {"--show-abi", "--stats"}));
  add(usage("dump_offsets_reversed", kDump, {"--from-offset", "5000", "--to-offset", "100", "log.pmclog"},
            {"--from-offset", "--to-offset"}));
  add(usage("dump_nosuch_option", kDump, {"--nosuch-option", "log.pmclog"}, {"--nosuch-option"}));
  add(usage("dump_bad_head", kDump, {"--head", "abc", "log.pmclog"}, {"--head", "'abc'"}));
  add(fails("dump_libpmc_not_elf", kDump, {"--libpmc", "text.txt", "log.pmclog"}, 2, {"text\\.txt"}));
  add(fails("dump_missing", kDump, {kMissing}, 2, {"nosuch\\.pmclog: No such file or directory"}));
  add(fails("dump_folder", kDump, {"folder"}, 2, {"folder: Is a directory"}));
  add(with(fails("dump_terminal_stdin", kDump, {}, 2, {"terminal"}), [](Case& c) {
    c.in = In::pty;
    c.form = Form::either;
    c.timeout_s = 5;
  }));
  add(fails("dump_truncated", kDump, {"trunc.pmclog"}, 1, {"trunc\\.pmclog"}));
  add(fails("dump_keep_going", kDump, {"--keep-going", "trunc.pmclog"}, 1));
  add(fails("dump_keep_going_short", kDump, {"-k", "badmagic.pmclog"}, 1));
  add(fails("dump_bad_magic", kDump, {"badmagic.pmclog"}, 1, {"magic"}));
  add(fails("dump_cut_gzip", kDump, {"cut.pmclog.gz"}, 1, {"cut\\.pmclog\\.gz"}));
  add(with(fails("dump_stdin_closed", kDump, {"-"}, 2, {"\\(stdin\\)"}), [](Case& c) { c.in = In::closed; }));
  add(with(fails("dump_stdin_empty", kDump, {}, 1), [](Case& c) { c.in = In::devnull; }));
  add(with(fails("dump_help_full", kDump, {"--help"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("dump_version_full", kDump, {"-V"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("dump_full", kDump, {"log.pmclog"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));

  // ----- pmclog-validate
  add(ok("validate_log", kValidate, {"log.pmclog"}));
  add(ok("validate_fixtures", kValidate, {"l3.pmclog", "m10.pmclog", "log.pmclog.gz"}));
  add(ok("validate_list_rules", kValidate, {"--list-rules"}));
  add(ok("validate_list_rules_json", kValidate, {"--list-rules", "--format=json"}));
  add(with(ok("validate_junit", kValidate, {"--format=junit", "-o", "report.xml", "log.pmclog"}),
           [](Case& c) { c.creates = {"report.xml"}; }));
  add(with(ok("validate_checks", kValidate,
              {"--disable", "bad-magic", "--enable", "missing-closelog", "--pedantic", "--max-cpu",
               "63", "--format", "json", "--output", "report.json", "--max-errors", "5",
               "--quiet", "log.pmclog"}),
           [](Case& c) {
             c.creates = {"report.json"};
             c.status = {0, 1};  // pedantic rules may find what a synthetic log leaves out
           }));
  add(with(fails("validate_strict", kValidate, {"--strict", "-q", "badmagic.pmclog"}, 1), [](Case& c) {
    c.form = Form::ok;  // -q: nothing at all
  }));
  add(ok("validate_abi", kValidate,
         {"--generation", "M", "--address-width", "8", "--address-slot", "8", "--byte-order",
          "little", "--time-width", "8", "log.pmclog"}));
  add(ok("validate_sysroot", kValidate, {"--sysroot", "folder", "log.pmclog"}));
  add(ok("validate_help", kValidate, {"-h"}));
  add(ok("validate_version", kValidate, {"-V"}));
  add(with(ok("validate_stdin", kValidate, {}), [](Case& c) { c.in = In::file; c.in_file = "log.pmclog"; }));
  add(usage("validate_list_rules_file", kValidate, {"--list-rules", "log.pmclog"}, {"log\\.pmclog"}));
  add(usage("validate_max_cpu_negative", kValidate, {"--max-cpu", "-1", "log.pmclog"},
            {"--max-cpu", "'-1'"}));
  add(usage("validate_bad_max_errors", kValidate, {"--max-errors", "abc", "log.pmclog"},
            {"--max-errors", "'abc'"}));
  add(usage("validate_nosuch_option", kValidate, {"--nosuch-option", "log.pmclog"}, {"--nosuch-option"}));
  add(with(fails("validate_output_is_input", kValidate,
                 {"--format=junit", "-o", "log.pmclog", "log.pmclog"}, 2, {"log\\.pmclog"}),
           [](Case& c) { c.form = Form::either; }));
  add(fails("validate_libpmc_not_elf", kValidate, {"--libpmc", "text.txt", "log.pmclog"}, 2, {"text\\.txt"}));
  add(fails("validate_missing", kValidate, {kMissing}, 2, {"nosuch\\.pmclog: No such file or directory"}));
  add(fails("validate_folder", kValidate, {"folder"}, 2, {"folder: Is a directory"}));
  add(with(fails("validate_terminal_stdin", kValidate, {}, 2, {"terminal"}), [](Case& c) {
    c.in = In::pty;
    c.form = Form::either;
    c.timeout_s = 5;
  }));
  // Problems found are the report (on standard output), not error messages.
  add(with(fails("validate_bad_magic", kValidate, {"badmagic.pmclog"}, 1), [](Case& c) { c.form = Form::ok; }));
  add(with(fails("validate_truncated", kValidate, {"trunc.pmclog"}, 1), [](Case& c) { c.form = Form::ok; }));
  add(with(fails("validate_stdin_closed", kValidate, {}, 2, {"\\(stdin\\)"}), [](Case& c) { c.in = In::closed; }));
  add(with(fails("validate_stdin_empty", kValidate, {}, 1), [](Case& c) { c.in = In::devnull; c.form = Form::quiet_or_error; }));
  add(with(fails("validate_cut_gzip", kValidate, {"cut.pmclog.gz"}, 1), [](Case& c) {
    c.form = Form::quiet_or_error;
  }));
  add(with(fails("validate_help_full", kValidate, {"--help"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("validate_version_full", kValidate, {"--version"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("validate_list_rules_full", kValidate, {"--list-rules"}, 2, {nospace}),
           [](Case& c) { c.out = Out::full; }));
  add(with(fails("validate_full", kValidate, {"log.pmclog"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));

  // ----- pmclog-write
  add(with(ok("write_json", kWrite, {"log.jsonl", "-o", "out.pmclog"}), [](Case& c) { c.creates = {"out.pmclog"}; }));
  add(with(ok("write_json_stdin", kWrite, {"-", "--output", "out.pmclog"}), [](Case& c) {
    c.in = In::file;
    c.in_file = "log.jsonl";
    c.creates = {"out.pmclog"};
  }));
  add(with(ok("write_json_abi", kWrite,
              {"--generation", "M10", "--address-width", "8", "--address-slot", "8", "--byte-order",
               "little", "log.jsonl", "-o", "out.pmclog"}),
           [](Case& c) { c.creates = {"out.pmclog"}; }));
  add(with(ok("write_synth_abi", kWrite,
              {"synth", "-n", "100", "--generation", "M9", "--address-width", "4", "--byte-order",
               "little", "--time-width", "4", "-o", "i386.pmclog"}),
           [](Case& c) { c.creates = {"i386.pmclog"}; }));
  add(with(ok("write_file_member", kWrite, {"--file", "l3.pmclog", "multi.jsonl", "-o", "out.pmclog"}),
           [](Case& c) { c.creates = {"out.pmclog"}; }));
  add(with(ok("write_synth", kWrite, {"synth", "-n", "100", "-o", "a.pmclog"}),
           [](Case& c) { c.creates = {"a.pmclog"}; }));
  add(with(ok("write_synth_model", kWrite,
              {"synth", "--records", "300", "--processes", "3", "--depth", "2..4", "--events", "2",
               "--cpus", "2", "--ibs", "--cpu-buffer-size", "16KiB", "--container", "--seed", "7",
               "--quiet", "-o", "a.pmcl"}),
           [](Case& c) { c.creates = {"a.pmcl"}; }));
  add(with(ok("write_synth_size", kWrite, {"synth", "--size", "20KiB", "--generation", "L3", "-o", "a.pmclog"}),
           [](Case& c) { c.creates = {"a.pmclog"}; }));
  add(with(ok("write_synth_inject", kWrite,
              {"synth", "-n", "200", "--inject", "bad-length:0.05", "--inject-log", "faults.json",
               "-o", "bad.pmclog"}),
           [](Case& c) { c.creates = {"bad.pmclog", "faults.json"}; }));
  add(ok("write_synth_stdout", kWrite, {"synth", "-n", "50", "-o", "-"}));
  add(ok("write_help", kWrite, {"--help"}));
  add(ok("write_synth_help", kWrite, {"synth", "--help"}));
  add(ok("write_version", kWrite, {"-V"}));
  add(usage("write_synth_stray", kWrite, {"synth", "-n", "100", "-o", "a.pmclog", "extra"}, {"'extra'"}));
  add(usage("write_records_and_size", kWrite, {"synth", "-n", "100", "-s", "1MiB", "-o", "a.pmclog"},
            {"--records", "--size"}));
  add(with(usage("write_inject_past_end", kWrite,
                 {"synth", "-n", "100", "--inject", "bad-magic@99999999", "-o", "x.pmclog"},
                 {"--inject", "99999999"}),
           [](Case& c) { c.form = Form::either; }));
  // -n 100, not 10: a synthetic log's setup alone takes 25 records, another refusal.
  add(usage("write_option_before_synth", kWrite, {"-q", "synth", "-n", "100", "-o", "x.pmclog"},
            {"first|subcommand"}));
  add(usage("write_bad_records", kWrite, {"synth", "-n", "abc", "-o", "x.pmclog"}, {"--records", "'abc'"}));
  add(usage("write_nosuch_option", kWrite, {"--nosuch-option", "log.jsonl", "-o", "x.pmclog"},
            {"--nosuch-option"}));
  add(with(fails("write_output_is_input", kWrite, {"log.jsonl", "-o", "log.jsonl"}, 2, {"log\\.jsonl"}),
           [](Case& c) { c.form = Form::either; }));
  add(with(fails("write_terminal_stdin", kWrite, {"-o", "x.pmclog"}, 2, {"terminal"}), [](Case& c) {
    c.in = In::pty;
    c.form = Form::either;
    c.timeout_s = 5;
  }));
  add(with(fails("write_synth_terminal_stdout", kWrite, {"synth", "-n", "100", "-o", "-"}, 2, {"terminal"}),
           [](Case& c) {
             c.out = Out::pty;
             c.form = Form::either;
           }));
  add(fails("write_json_true", kWrite, {"true.jsonl", "-o", "x.pmclog"}, 1, {"true\\.jsonl:[0-9]+", "pid"}));
  add(fails("write_json_null", kWrite, {"null.jsonl", "-o", "x.pmclog"}, 1, {"null\\.jsonl:[0-9]+", "pid"}));
  add(with(fails("write_two_logs_concatenated", kWrite, {"-", "-o", "x.pmclog"}, 1, {"\\b(files|logs)\\b"}),
           [](Case& c) {
             c.status = {1, 2};
             c.in = In::file;
             c.in_file = "two.jsonl";
           }));
  add(with(fails("write_two_logs_together", kWrite, {"-", "-o", "x.pmclog"}, 1, {"\\b(files|logs)\\b", "--file"}),
           [](Case& c) {
             c.status = {1, 2};
             c.in = In::file;
             c.in_file = "multi.jsonl";
           }));
  add(fails("write_missing", kWrite, {"nosuch.jsonl", "-o", "x.pmclog"}, 2,
            {"nosuch\\.jsonl: No such file or directory"}));
  add(fails("write_folder", kWrite, {"folder", "-o", "x.pmclog"}, 2, {"folder: Is a directory"}));
  add(with(fails("write_stdin_closed", kWrite, {"-o", "x.pmclog"}, 2, {"\\(stdin\\)"}), [](Case& c) { c.in = In::closed; }));
  add(with(fails("write_stdin_empty", kWrite, {"-o", "x.pmclog"}, 1), [](Case& c) { c.in = In::devnull; }));
  add(with(fails("write_help_full", kWrite, {"--help"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("write_version_full", kWrite, {"--version"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("write_synth_full", kWrite, {"synth", "-n", "50", "-o", "-"}, 2, {nospace}),
           [](Case& c) { c.out = Out::full; }));

  // ----- pmclog-record (its real runs are short: `true`, a low rate)
  auto rec = [](Case c) {
    c.needs_perf = true;
    return c;
  };
  // Without -q its summary: what it wrote (as a note or a line of its own).
  add(rec(with(ok("record_true", kRecord, {"-F", "100", "-o", "out.pmclog", "--", "true"}), [](Case& c) {
    c.creates = {"out.pmclog"};
    c.sections = "^pmclog-record: (note: )?(wrote|[0-9]+ of [0-9]+ callchains) ";
  })));
  add(rec(with(ok("record_without_dashes", kRecord, {"-q", "-o", "out.pmclog", "ls", "-la"}),
               [](Case& c) { c.creates = {"out.pmclog"}; })));
  add(rec(with(ok("record_options", kRecord,
                  {"--event", "cpu-clock", "--period", "100000", "--depth", "8", "--user-callchain",
                   "--call-graph", "dwarf,4096",
                   "--container", "--fallback", "--mmap-pages", "8", "--duration", "5", "--quiet",
                   "--output", "out.pmcl", "--", "true"}),
               [](Case& c) { c.creates = {"out.pmcl"}; })));
  add(rec(with(ok("record_abi", kRecord,
                  {"--freq", "100", "--user-only", "--generation", "L3", "--address-width", "8",
                   "--byte-order", "little", "-q", "-o", "out.pmclog", "--", "true"}),
               [](Case& c) { c.creates = {"out.pmclog"}; })));
  add(rec(with(ok("record_count", kRecord,
                  {"--count", "--per-process", "-e", "task-clock", "-q", "-o", "out.pmclog", "--", "true"}),
               [](Case& c) { c.creates = {"out.pmclog"}; })));
  add(ok("record_list_events", kRecord, {"--list-events"}));
  add(ok("record_help", kRecord, {"--help"}));
  add(ok("record_version", kRecord, {"--version"}));
  add(usage("record_count_freq", kRecord, {"--count", "-F", "100", "--", "true"}, {"--count", "--freq"}));
  add(usage("record_count_depth", kRecord, {"--count", "--depth", "5", "--", "true"}, {"--count", "--depth"}));
  add(usage("record_duration_zero", kRecord, {"--duration", "0", "--", "true"}, {"--duration", "'0'"}));
  add(usage("record_pid_and_command", kRecord, {"--pid", "1", "--", "true"}, {"(-p|--pid)\\b"}));
  add(usage("record_all_cpus_and_pid", kRecord, {"--all-cpus", "-p", "1"}, {"(-a|--all-cpus)\\b", "(-p|--pid)\\b"}));
  add(usage("record_tid_and_pid", kRecord, {"--tid", "1", "-p", "1"}, {"(-t|--tid)\\b", "(-p|--pid)\\b"}));
  add(usage("record_cpu_out_of_range", kRecord, {"--cpu", "4096", "--duration", "1"}, {"(-C|--cpu)\\b", "'4096'"}));
  add(usage("record_bad_freq", kRecord, {"-F", "abc", "--", "true"}, {"--freq|-F", "abc"}));
  add(usage("record_kallsyms_is_the_log", kRecord,
            {"-o", "x.pmclog", "--kallsyms", "x.pmclog", "--", "true"}, {"--kallsyms", "x\\.pmclog"}));
  add(usage("record_nosuch_option", kRecord, {"--nosuch-option", "--", "true"}, {"--nosuch-option"}));
  add(with(fails("record_terminal_stdout", kRecord, {"-o", "-", "--", "true"}, 2, {"terminal"}), [](Case& c) {
    c.out = Out::pty;
    c.form = Form::either;
  }));
  add(with(fails("record_help_full", kRecord, {"--help"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("record_version_full", kRecord, {"-V"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("record_list_events_full", kRecord, {"--list-events"}, 2, {nospace}),
           [](Case& c) { c.out = Out::full; }));

  // ----- pmclog-report
  add(ok("report_top", kReport, {"log.pmclog"}));
  add(with(ok("report_format_top", kReport, {"--format", "top", "log.pmclog"}),
           [](Case& c) { c.warn = Warn::forbidden; }));
  add(with(ok("report_output_kind_deprecated", kReport, {"--output", "top", "log.pmclog"}),
           [](Case& c) {
             c.warn = Warn::required;
             c.keywords = {"warning: .*--format"};
           }));
  add(with(ok("report_two_outputs", kReport,
              {"--format", "top,folded", "-o", "top.txt", "-o", "out.folded", "l3.pmclog", "log.pmclog"}),
           [](Case& c) { c.creates = {"top.txt", "out.folded"}; }));
  add(ok("report_top_options", kReport,
         {"--format", "top", "--by", "comm,pid,symbol", "--sort", "total", "--limit", "5",
          "--no-progress", "--max-stacks", "100000", "--no-kallsyms", "--no-demangle", "--lines",
          "--inline", "log.pmclog"}));
  add(with(ok("report_svg", kReport,
              {"--format", "svg", "--icicle", "--reverse", "--min-width", "0.5", "--width", "800",
               "--title", "t", "--comm-frame", "--output", "flame.svg", "log.pmclog"}),
           [](Case& c) { c.creates = {"flame.svg"}; }));
  // One log on both sides: no change can be significant, so the gate holds.
  add(ok("report_diff", kReport,
         {"--alpha", "0.05", "--fail-if", "self>+2", "--fail-if", "total(sym=main)>+5%", "--diff",
          "log.pmclog", "--", "log.pmclog"}));
  add(usage("report_diff_bad_fail_if", kReport,
            {"--fail-if", "self>>2", "--diff", "log.pmclog", "--", "log.pmclog"},
            {"--fail-if", "not a number"}));
  add(usage("report_diff_no_separator", kReport, {"--diff", "log.pmclog", "l3.pmclog"},
            {"--diff", "'--'"}));
  add(ok("report_callgraph", kReport, {"--format", "callgraph", "-z", "4", "log.pmclog"}));
  add(ok("report_callgraph_long", kReport, {"--format", "callgraph", "--callgraph-depth", "4", "log.pmclog"}));
  add(ok("report_by_file", kReport, {"--format", "folded", "--by-file", "l3.pmclog", "log.pmclog"}));
  add(ok("report_jobs", kReport, {"--format", "folded", "-j", "2", "l3.pmclog", "log.pmclog"}));
  add(ok("report_jobs_long", kReport, {"--format", "top", "--jobs", "1", "l3.pmclog", "log.pmclog"}));
  add(ok("report_filters", kReport,
         {"--tid", "100", "--event", "BU_CPU_CLK_UNHALTED", "--cpu", "0,1", "--user-only", "--from",
          "0", "--to", "1000", "log.pmclog"}));
  add(ok("report_kernel_only", kReport, {"--kernel-only", "--ibs", "log.pmclog"}));
  add(ok("report_symbols", kReport, {"--sysroot", "folder", "--debug-dir", "folder", "log.pmclog"}));
  add(ok("report_symfs", kReport, {"--symfs", "folder", "log.pmclog"}));
  add(ok("report_abi", kReport,
         {"--generation", "M10", "--address-width", "8", "--address-slot", "8", "--byte-order",
          "little", "--time-width", "8", "log.pmclog"}));
  add(with(ok("report_stdin", kReport, {}), [](Case& c) { c.in = In::file; c.in_file = "log.pmclog"; }));
  add(ok("report_help", kReport, {"--help"}));
  add(ok("report_version", kReport, {"--version"}));
  add(with(ok("report_comm_matches_nothing", kReport, {"--comm", "nosuch", "log.pmclog"}),
           [](Case& c) { c.warn = Warn::required; }));
  add(with(ok("report_pid_matches_nothing", kReport, {"--pid", "1", "log.pmclog"}),
           [](Case& c) { c.warn = Warn::required; }));
  add(usage("report_same_output_twice", kReport,
            {"--format", "top,folded", "-o", "same.txt", "-o", "same.txt", "log.pmclog"}, {"same\\.txt"}));
  add(usage("report_kernel_missing", kReport, {"--kernel", "/nonexistent", "log.pmclog"},
            {"--kernel", "/nonexistent"}));
  add(usage("report_kallsyms_missing", kReport, {"--kallsyms", "/nonexistent", "log.pmclog"},
            {"--kallsyms", "/nonexistent"}));
  add(usage("report_kernel_folder", kReport, {"--kernel", "folder", "log.pmclog"}, {"--kernel", "folder"}));
  add(usage("report_sysroot_missing", kReport, {"--sysroot", "/nonexistent", "log.pmclog"},
            {"--sysroot", "/nonexistent"}));
  add(usage("report_sysroot_file", kReport, {"--sysroot", "log.pmclog", "log.pmclog"}, {"--sysroot"}));
  add(usage("report_bad_limit", kReport, {"--limit", "abc", "log.pmclog"}, {"--limit", "'abc'"}));
  add(usage("report_nosuch_option", kReport, {"--nosuch-option", "log.pmclog"}, {"--nosuch-option"}));
  add(with(fails("report_output_is_input", kReport, {"-o", "log.pmclog", "log.pmclog"}, 2, {"log\\.pmclog"}),
           [](Case& c) { c.form = Form::either; }));
  add(fails("report_libpmc_not_elf", kReport, {"--libpmc", "text.txt", "log.pmclog"}, 2, {"text\\.txt"}));
  add(fails("report_missing", kReport, {kMissing}, 2, {"nosuch\\.pmclog: No such file or directory"}));
  add(fails("report_folder", kReport, {"folder"}, 2, {"folder: Is a directory"}));
  add(with(fails("report_terminal_stdin", kReport, {}, 2, {"terminal"}), [](Case& c) {
    c.in = In::pty;
    c.form = Form::either;
    c.timeout_s = 5;
  }));
  add(fails("report_bad_magic", kReport, {"badmagic.pmclog"}, 1, {"magic"}));
  add(fails("report_keep_going", kReport, {"--keep-going", "trunc.pmclog"}, 1));
  add(fails("report_cut_gzip", kReport, {"cut.pmclog.gz"}, 1, {"cut\\.pmclog\\.gz"}));
  add(with(fails("report_stdin_closed", kReport, {}, 2, {"\\(stdin\\)"}), [](Case& c) { c.in = In::closed; }));
  add(with(fails("report_stdin_empty", kReport, {"-"}, 1), [](Case& c) { c.in = In::devnull; }));
  add(with(fails("report_help_full", kReport, {"--help"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("report_version_full", kReport, {"-V"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));
  add(with(fails("report_full", kReport, {"log.pmclog"}, 2, {nospace}), [](Case& c) { c.out = Out::full; }));

  return t;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> t = table();
  return t;
}

// ---------------------------------------------------------------------------------------
// Fixtures, made once per process.

// A run of the table: the shared runner's result, and whether it had to be killed.
struct Launched : Ran {
  bool timed_out = false;
};

// Runs argv in `cwd` with standard input and output as given, stderr through a pipe, for at
// most timeout_s seconds (then the whole process group is killed). Not the shared runner: a
// terminal must be the child's controlling one, in a session of its own, which the timeout
// kills whole.
Launched launch(const std::vector<std::string>& argv, const fs::path& cwd, In in,
                const std::string& in_file, Out out, const fs::path& out_file, int timeout_s) {
  int ep[2], op[2] = {-1, -1};
  if (pipe(ep) != 0) return {};
  if (out == Out::pipe && pipe(op) != 0) return {};
  int master = -1, slave = -1;
  if ((in == In::pty || out == Out::pty) && openpty(&master, &slave, nullptr, nullptr, nullptr) != 0)
    return {};
  const pid_t pid = fork();
  if (pid == 0) {
    setsid();  // its own session and process group: a timeout kills what it started too
    if (slave >= 0) ioctl(slave, TIOCSCTTY, 0);
    if (chdir(cwd.c_str()) != 0) _exit(120);
    int ifd = -1;
    switch (in) {
      case In::devnull: ifd = open("/dev/null", O_RDONLY); break;
      case In::file: ifd = open(in_file.c_str(), O_RDONLY); break;
      case In::pty: ifd = slave; break;
      case In::closed: break;
    }
    int ofd = -1;
    switch (out) {
      case Out::pipe: ofd = op[1]; break;
      case Out::file: ofd = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644); break;
      case Out::full: ofd = open("/dev/full", O_WRONLY); break;
      case Out::pty: ofd = slave; break;
    }
    if (ifd >= 0) dup2(ifd, STDIN_FILENO);
    dup2(ofd, STDOUT_FILENO);
    dup2(ep[1], STDERR_FILENO);
    if (in == In::closed) close(STDIN_FILENO);
    for (int fd : {ep[0], ep[1], op[0], op[1], master, slave, ifd, ofd})
      if (fd > STDERR_FILENO) close(fd);
    signal(SIGPIPE, SIG_DFL);
    setenv("LC_ALL", "C", 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(ep[1]);
  if (op[1] >= 0) close(op[1]);
  if (slave >= 0) close(slave);
  Launched r;
  struct Src {
    int fd;
    std::string* into;
  };
  std::vector<Src> srcs{{ep[0], &r.err}};
  if (op[0] >= 0) srcs.push_back({op[0], &r.out});
  if (master >= 0) srcs.push_back({master, &r.out});  // the terminal's output (echo included)
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::steady_clock::now() - start; };
  bool exited = false;
  int ws = 0;
  std::chrono::steady_clock::duration exited_at{};
  while (true) {
    if (!exited && waitpid(pid, &ws, WNOHANG) == pid) {
      exited = true;
      exited_at = elapsed();
    }
    // Once it has ended, what it started may hold the pipes a little longer, not forever.
    if (srcs.empty() && exited) break;
    if (exited && elapsed() - exited_at > std::chrono::seconds(2)) break;
    if (!exited && elapsed() > std::chrono::seconds(timeout_s)) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &ws, 0);
      r.timed_out = true;
      break;
    }
    std::vector<pollfd> pfds;
    for (const Src& s : srcs) pfds.push_back({s.fd, POLLIN, 0});
    if (poll(pfds.data(), pfds.size(), 50) < 0 && errno != EINTR) break;
    for (size_t i = pfds.size(); i-- > 0;) {
      if (pfds[i].revents == 0) continue;
      char buf[8192];
      const ssize_t n = read(srcs[i].fd, buf, sizeof buf);
      if (n > 0) {
        srcs[i].into->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {  // EIO: the terminal's last close
        close(srcs[i].fd);
        srcs.erase(srcs.begin() + static_cast<long>(i));
      }
    }
  }
  for (const Src& s : srcs) close(s.fd);
  kill(-pid, SIGKILL);  // anything it left running
  r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  return r;
}

// A plain run in `cwd`: stdout captured, or into `out_file` when given.
Ran run_tool(const std::string& tool, const std::vector<std::string>& args, const fs::path& cwd,
             const fs::path& out_file = {}) {
  std::vector<std::string> argv{bin(tool)};
  argv.insert(argv.end(), args.begin(), args.end());
  RunOptions o;
  o.cwd = cwd.string();
  o.env = {"LC_ALL=C"};
  o.stdout_path = out_file.string();
  return run(argv, o);
}

// The scratch folder's contents, shared by the test's processes (ctest runs each case in a
// process of its own): made once per build of the tools and of this test, under a temporary
// name then renamed into place, and never changed after.
class Fixtures {
 public:
  static const Fixtures& get() {
    static const Fixtures f;
    return f;
  }
  const fs::path& dir() const { return dir_; }
  const std::string& error() const { return error_; }
  // pmclog-record's real runs need perf_event_open.
  bool record_works() const {
    static const bool works = [] {
      ScratchDir d;
      return run_tool(kRecord, {"-q", "-o", "probe.pmclog", "--", "true"}, d.path()).status == 0;
    }();
    return works;
  }

 private:
  Fixtures() {
    const fs::path base = PMCLOG_CLI_TABLE_CACHE;
    std::error_code ec;
    fs::create_directories(base, ec);
    dir_ = base / ("fixtures-" + stamp());
    if (fs::is_directory(dir_)) return;
    std::string tmpl = (base / "making.XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      error_ = "cannot make a folder in " + base.string();
      return;
    }
    const fs::path tmp = tmpl;
    error_ = make(tmp);
    // A rename onto a folder another process has just made fails: then that one is used.
    if (!error_.empty() || rename(tmp.c_str(), dir_.c_str()) != 0) {
      fs::remove_all(tmp, ec);
      return;
    }
    // Those of earlier builds go.
    for (const auto& e : fs::directory_iterator(base, ec))
      if (e.path() != dir_ && e.path().filename().string().rfind("fixtures-", 0) == 0)
        fs::remove_all(e.path(), ec);
  }

  // What the fixtures are made from and with: the tools, this test, the fixture logs.
  static std::string stamp() {
    std::string s;
    std::vector<std::string> from{"/proc/self/exe", std::string(PMCLOG_FIXTURES_DIR) + "/L3-64-le.pmclog",
                                  std::string(PMCLOG_FIXTURES_DIR) + "/M10-64-le.pmclog"};
    for (const char* t : kTools) from.push_back(bin(t));
    for (const auto& p : from) {
      struct stat st {};
      if (stat(p.c_str(), &st) != 0) continue;
      s += std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + ";";
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}(s));
    return hex;
  }

  std::string make(const fs::path& d) {
    const fs::path fx = PMCLOG_FIXTURES_DIR;
    auto Run = [&](const std::string& tool, const std::vector<std::string>& args,
                   const fs::path& out_file = {}) -> std::string {
      const Ran r = run_tool(tool, args, d, out_file);
      if (r.status == 0) return "";
      std::string cmd = tool;
      for (const auto& a : args) cmd += " " + a;
      return "fixture command failed (" + std::to_string(r.status) + "): " + cmd + "\n" + r.err;
    };
    std::string e;
    if (!(e = Run(kWrite, {"synth", "-q", "-n", "200", "--seed", "3", "-o", "log.pmclog"})).empty())
      return e;
    fs::copy_file(fx / "L3-64-le.pmclog", d / "l3.pmclog");
    fs::copy_file(fx / "M10-64-le.pmclog", d / "m10.pmclog");
    const std::string log = slurp(d / "log.pmclog");
    if (log.size() < 1000) return "log.pmclog is too small";
    write_file(d / "trunc.pmclog", log.substr(0, log.size() - 7));
    // The record after the modern INITIALIZE (112 bytes): the top byte of its header word,
    // the magic 0xEE, is the word's fourth byte in a little-endian log.
    std::string bad = log;
    if (static_cast<unsigned char>(bad[112 + 3]) != 0xee) return "log.pmclog: no record header at 112";
    bad[112 + 3] = '\x11';
    write_file(d / "badmagic.pmclog", bad);
    RunOptions to_gz;
    to_gz.stdout_path = (d / "log.pmclog.gz").string();
    if (const Ran z = run({"gzip", "-c", "-n", d / "log.pmclog"}, to_gz); z.status != 0)
      return "gzip failed: " + z.err;
    const std::string gz = slurp(d / "log.pmclog.gz");
    write_file(d / "cut.pmclog.gz", gz.substr(0, gz.size() * 2 / 3));
    if (!(e = Run(kDump, {"--format=jsonl", "log.pmclog"}, d / "log.jsonl")).empty()) return e;
    if (!(e = Run(kDump, {"--format=jsonl", "l3.pmclog"}, d / "l3.jsonl")).empty()) return e;
    if (!(e = Run(kDump, {"--format=jsonl", "m10.pmclog"}, d / "m10.jsonl")).empty()) return e;
    if (!(e = Run(kDump, {"--format=jsonl", "l3.pmclog", "m10.pmclog"}, d / "multi.jsonl")).empty())
      return e;
    write_file(d / "two.jsonl", slurp(d / "l3.jsonl") + slurp(d / "m10.jsonl"));
    fs::remove(d / "l3.jsonl");
    fs::remove(d / "m10.jsonl");
    // One integer member of a sample (its pid) replaced by a literal.
    const std::string jsonl = slurp(d / "log.jsonl");
    const std::regex pid_member("(\"pid\":)([0-9]+)");
    std::smatch m;
    if (!std::regex_search(jsonl, m, pid_member)) return "log.jsonl has no \"pid\" member";
    const auto at = static_cast<size_t>(m.position(2)), len = static_cast<size_t>(m.length(2));
    write_file(d / "true.jsonl", jsonl.substr(0, at) + "true" + jsonl.substr(at + len));
    write_file(d / "null.jsonl", jsonl.substr(0, at) + "null" + jsonl.substr(at + len));
    fs::create_directory(d / "folder");
    write_file(d / "text.txt", "not a log\n");
    return "";
  }

  fs::path dir_;
  std::string error_;
};

// ---------------------------------------------------------------------------------------
// What a folder holds: each name (recursively) with its kind, mode and content.

struct Entry {
  bool dir = false;
  unsigned mode = 0;
  std::string content;
  bool operator==(const Entry&) const = default;
};

std::map<std::string, Entry> snapshot(const fs::path& root) {
  std::map<std::string, Entry> m;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    struct stat st {};
    if (lstat(e.path().c_str(), &st) != 0) continue;
    Entry x;
    x.dir = S_ISDIR(st.st_mode);
    x.mode = st.st_mode;
    if (S_ISREG(st.st_mode)) x.content = slurp(e.path());
    m[fs::relative(e.path(), root).string()] = std::move(x);
  }
  return m;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  std::string line;
  std::istringstream in(s);
  while (std::getline(in, line)) v.push_back(line);
  return v;
}

bool search_icase(const std::string& text, const std::string& re) {
  return std::regex_search(text, std::regex(re, std::regex::ECMAScript | std::regex::icase));
}

std::string command_line(const Case& c) {
  std::string s = c.tool;
  for (const auto& a : c.args) s += " " + a;
  switch (c.in) {
    case In::devnull: break;
    case In::closed: s += " <&-"; break;
    case In::file: s += " < " + c.in_file; break;
    case In::pty: s += " < (a terminal)"; break;
  }
  switch (c.out) {
    case Out::pipe: s += " | ..."; break;
    case Out::file: s += " > (a file)"; break;
    case Out::full: s += " > /dev/full"; break;
    case Out::pty: s += " > (a terminal)"; break;
  }
  return s;
}

// Every problem with one run, one line each; empty when the case holds.
std::vector<std::string> judge(const Case& c, const Launched& r,
                               const std::map<std::string, Entry>& before,
                               const std::map<std::string, Entry>& after) {
  std::vector<std::string> bad;
  const std::string tool = c.tool;
  const std::string prefix = tool + ": ";
  if (r.timed_out) bad.push_back("did not end within " + std::to_string(c.timeout_s) + " s (killed)");
  if (std::find(c.status.begin(), c.status.end(), r.status) == c.status.end()) {
    std::string want;
    for (int s : c.status) want += (want.empty() ? "" : " or ") + std::to_string(s);
    bad.push_back("exit status " + std::to_string(r.status) + ", expected " + want);
  }
  const std::vector<std::string> lines = lines_of(r.err);
  const std::string try_line = "Try '" + tool + " --help'.";
  auto prefixed = [&](const std::string& l) { return l.rfind(prefix, 0) == 0 && l.size() > prefix.size(); };
  auto is_warning = [&](const std::string& l) {
    return l.rfind(prefix + "warning: ", 0) == 0 || l.rfind(prefix + "note: ", 0) == 0;
  };
  auto allowed_section = [&](const std::string& l) {
    return !c.sections.empty() && std::regex_search(l, std::regex(c.sections));
  };
  bool usage_form = false;
  if (c.form == Form::usage || c.form == Form::either) {
    usage_form = lines.size() == 2 && prefixed(lines[0]) && lines[1] == try_line;
  }
  bool error_form = false;
  if (c.form == Form::error || c.form == Form::either || c.form == Form::quiet_or_error) {
    error_form = !lines.empty() || c.form == Form::quiet_or_error;
    for (const auto& l : lines)
      if (!prefixed(l) && !allowed_section(l)) error_form = false;
    if (c.form == Form::either && !lines.empty() && lines.back() == try_line) error_form = false;
  }
  switch (c.form) {
    case Form::usage:
      if (!usage_form)
        bad.push_back("not a usage error: expected exactly \"" + prefix + "MESSAGE\" then \"" +
                      try_line + "\"");
      break;
    case Form::error:
      if (!error_form)
        bad.push_back("not an error message: expected one or more lines, each \"" + prefix +
                      "...\"" + (c.sections.empty() ? "" : " or /" + c.sections + "/"));
      break;
    case Form::either:
      if (!usage_form && !error_form)
        bad.push_back("neither an error (\"" + prefix + "...\" lines) nor a usage error (\"" +
                      prefix + "MESSAGE\" + \"" + try_line + "\")");
      break;
    case Form::quiet_or_error:
      if (!error_form) bad.push_back("a stderr line without \"" + prefix + "\"");
      break;
    case Form::ok:
      for (const auto& l : lines)
        if (prefixed(l) && !is_warning(l) && !allowed_section(l)) bad.push_back("an error line on a success: " + l);
      break;
  }
  // Keywords: in the usage message when that is the form, else anywhere on stderr.
  const std::string where = usage_form ? lines[0] : r.err;
  for (const auto& k : c.keywords)
    if (!search_icase(where, k)) bad.push_back("the message does not match /" + k + "/i");
  const bool warned = std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.rfind(prefix + "warning: ", 0) == 0;
  });
  if (c.warn == Warn::required && !warned) bad.push_back("no \"" + prefix + "warning: \" line");
  if (c.warn == Warn::forbidden && warned) bad.push_back("a warning where none belongs");
  // The folder: nothing changed, nothing new but what the case creates.
  for (const auto& [name, e] : before) {
    auto it = after.find(name);
    if (it == after.end())
      bad.push_back("removed: " + name);
    else if (!(it->second == e))
      bad.push_back((it->second.mode != e.mode ? "mode changed: " : "content changed: ") + name);
  }
  for (const auto& [name, e] : after) {
    if (before.count(name)) continue;
    if (std::find(c.creates.begin(), c.creates.end(), name) == c.creates.end())
      bad.push_back("left a new file: " + name);
  }
  for (const auto& name : c.creates)
    if (!after.count(name)) bad.push_back("did not create " + name);
  return bad;
}

class CliTable : public testing::TestWithParam<Case> {};

TEST_P(CliTable, Case) {
  const Case& c = GetParam();
  const Fixtures& fx = Fixtures::get();
  ASSERT_EQ(fx.error(), "");
  if (c.needs_perf && !fx.record_works()) GTEST_SKIP() << "perf_event_open is not allowed here";
  ScratchDir d;
  for (const auto& e : fs::directory_iterator(fx.dir()))
    fs::copy(e.path(), d / e.path().filename().string(), fs::copy_options::recursive);
  const auto before = snapshot(d.path());
  const fs::path out_file = d.path().string() + ".stdout";
  std::vector<std::string> argv{bin(c.tool)};
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  const Launched r = launch(argv, d.path(), c.in, c.in_file, c.out, out_file, c.timeout_s);
  fs::remove(out_file);
  const auto bad = judge(c, r, before, snapshot(d.path()));
  if (bad.empty()) return;
  std::string report;
  for (const auto& b : bad) report += "  - " + b + "\n";
  ADD_FAILURE() << "case " << c.id << ": " << command_line(c) << "\n"
                << report << "stderr:\n"
                << r.err << (r.err.empty() || r.err.back() == '\n' ? "" : "\n")
                << "stdout (first 400 bytes):\n"
                << r.out.substr(0, 400);
}

INSTANTIATE_TEST_SUITE_P(Table, CliTable, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return std::string(i.param.id); });

// ---------------------------------------------------------------------------------------
// The table's own consistency, and that it uses every option the tools document.

TEST(CliTableSelf, IdsAreUnique) {
  std::set<std::string> ids;
  for (const Case& c : cases()) EXPECT_TRUE(ids.insert(c.id).second) << "two cases named " << c.id;
}

// The judge itself, on made-up runs: each rule it applies can fail.
TEST(CliTableSelf, JudgeFindsEachKindOfProblem) {
  Case c = usage("self", kDump, {}, {"--alpha", "--beta"});
  c.creates = {"made"};
  const std::map<std::string, Entry> before{{"a", {false, 0100644, "x"}}, {"b", {false, 0100644, "y"}},
                                            {"c", {false, 0100644, "z"}}};
  std::map<std::string, Entry> after = before;
  after["made"] = {false, 0100644, ""};
  Launched r;
  r.status = 2;
  r.err = "pmclog-dump: --alpha and --beta cannot be used together\nTry 'pmclog-dump --help'.\n";
  EXPECT_EQ(judge(c, r, before, after), std::vector<std::string>{});

  after["a"].content = "changed";
  after["b"].mode = 0100600;
  after.erase("c");
  after.erase("made");
  after["x.tmp"] = {false, 0100644, ""};
  r.status = 1;
  r.err = "pmclog-dump: --alpha is bad\nsomething else\n";
  const auto bad = judge(c, r, before, after);
  const std::vector<std::string> want{
      "exit status 1, expected 2",
      "not a usage error: expected exactly \"pmclog-dump: MESSAGE\" then \"Try 'pmclog-dump --help'.\"",
      "the message does not match /--beta/i",
      "content changed: a",
      "mode changed: b",
      "removed: c",
      "left a new file: x.tmp",
      "did not create made"};
  EXPECT_EQ(bad, want);

  Case e = fails("self_error", kDump, {}, 1);
  r.err = "pmclog-dump: x: bad\nTry 'pmclog-dump --help'.\n";
  EXPECT_EQ(judge(e, r, before, before).size(), 1u) << "a Try line is not the error form";
  Case o = ok("self_ok", kDump, {});
  o.warn = Warn::required;
  r.status = 0;
  r.err = "pmclog-dump: note: fine\n";
  EXPECT_EQ(judge(o, r, before, before), std::vector<std::string>{"no \"pmclog-dump: warning: \" line"});
  r.err = "pmclog-dump: broken\n";
  EXPECT_EQ(judge(o, r, before, before).size(), 2u) << "an error line on a success";
}

// The long options of a --help text, each with its short name if it has one ("-o"): option
// lines start with two spaces and a dash, the option column ends at two spaces (as
// tests/package/help_options.sh reads them).
std::map<std::string, std::string> help_options(const std::string& help) {
  std::map<std::string, std::string> m;
  const std::regex long_re("--[a-z0-9][a-z0-9-]*"), short_re("^-([A-Za-z0-9])( |$)");
  for (const auto& line : lines_of(help)) {
    if (line.rfind("  -", 0) != 0) continue;
    std::string col = line.substr(2);
    col = col.substr(0, col.find("  "));
    std::smatch lm, sm;
    if (!std::regex_search(col, lm, long_re)) continue;
    m[lm.str()] = std::regex_search(col, sm, short_re) ? "-" + sm[1].str() : "";
  }
  return m;
}

// Whether `args` use option `name` (or its short form): "--x", "--x=V", "-o", "-oV", "-qo" is
// not counted (the table spells options one by one).
bool uses(const std::vector<std::string>& args, const std::string& name, const std::string& shrt) {
  for (const auto& a : args) {
    if (a == "--") return false;  // a command's own arguments (pmclog-record)
    if (a == name || a.rfind(name + "=", 0) == 0) return true;
    if (!shrt.empty() && a.rfind(shrt, 0) == 0 && a.rfind("--", 0) != 0) return true;
  }
  return false;
}

TEST(CliTableSelf, OptionCoverage) {
  ScratchDir d;
  for (const char* tool : kTools) {
    std::map<std::string, std::string> opts;
    std::vector<std::vector<std::string>> helps{{"--help"}};
    if (std::string(tool) == kWrite) helps.push_back({"synth", "--help"});
    for (const auto& h : helps) {
      const Ran r = run_tool(tool, h, d.path());
      ASSERT_EQ(r.status, 0) << tool << " --help: " << r.err;
      for (const auto& [name, shrt] : help_options(r.out)) opts[name] = shrt;
    }
    ASSERT_GT(opts.size(), 3u) << tool << " --help lists no options the parser can read";
    std::string missing;
    for (const auto& opt : opts) {
      // named, not structured bindings: clang 14 cannot capture those in a lambda
      const std::string& name = opt.first;
      const std::string& shrt = opt.second;
      const bool covered = std::any_of(cases().begin(), cases().end(), [&](const Case& c) {
        return c.tool == std::string(tool) && uses(c.args, name, shrt);
      });
      if (!covered) missing += " " + name;
    }
    EXPECT_EQ(missing, "") << tool << " --help lists options no case of the table uses:"
                           << missing
                           << "\n(add a case to the table in tests/common/cli_table_test.cpp)";
  }
}

}  // namespace
