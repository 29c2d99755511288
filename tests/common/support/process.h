// Running a program as a subprocess for a test: argv as given (no shell re-parses it),
// standard input and output where the test says, stdout and stderr captured, the exit status
// or signal and the peak memory. Tests of shell behaviour (pipelines, redirections) run
// bash explicitly through the same runner.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace pmclog_test {

struct Ran {
  int status = -1;       // exit status, or 128 + signal; -1 when it could not be started
  int signal = 0;        // the signal that ended it, 0 when it exited
  long max_rss_kib = 0;  // its peak resident memory (wait4)
  std::string out, err;  // out stays empty when stdout goes elsewhere (RunOptions)
};

struct RunOptions {
  // Standard input: /dev/null unless one of these is set.
  std::optional<std::string> stdin_data;  // these bytes, as a regular file (seekable) or
  bool stdin_pipe = false;                // through a pipe, as from another program
  std::string stdin_path;                 // this file
  int stdin_fd = -1;                      // this descriptor (a pipe's read end, a terminal)
  bool stdin_closed = false;              // no descriptor 0 at all
  // Standard output: captured into Ran::out unless one of these is set.
  std::string stdout_path;  // this file, created or truncated ("/dev/null", "/dev/full")
  int stdout_fd = -1;       // this descriptor
  // Descriptors given here stay the caller's: the runner never closes them, so a test that
  // needs the child to be their only holder closes its copy in `during`.

  std::string cwd;               // the child's working directory ("" keeps the test's)
  std::vector<std::string> env;  // "NAME=value" set in the child's environment, "NAME" unset
  rlim_t file_size_limit = RLIM_INFINITY;  // RLIMIT_FSIZE: writes past it fail with EFBIG
  int uid = -1;  // with root: run as this uid and gid, with no supplementary group
};

// Options whose standard input is `data` through a pipe, as in `cat FILE | TOOL`.
RunOptions stdin_piped(std::string data);

// Runs argv (argv[0] a path, or a name looked up in PATH) with SIGPIPE at its default, as
// under a shell. `during` gets the child's pid while it runs and its output is collected; it
// must not reap the child (has_ended may look).
Ran run(const std::vector<std::string>& argv, const RunOptions& options = {},
        const std::function<void(pid_t)>& during = {});

// bash -c SCRIPT: for what only a shell does (pipelines, PIPESTATUS, redirections such as
// `<&-`). Anything else goes through run() with its argv.
Ran bash(const std::string& script, const RunOptions& options = {});

// Fixed option text split at spaces ("-n 10 --seed 2"), for tables of options: no quoting,
// no expansion, so a path always goes as an argument of its own.
std::vector<std::string> words(const std::string& text);

// The argument lists one after the other: concat({{tool, "-q"}, words(options), {"-o", out}}).
std::vector<std::string> concat(std::initializer_list<std::vector<std::string>> parts);

// `s` single-quoted for a bash script.
std::string shell_quote(const std::string& s);

// True once the child has ended, without reaping it (for run's `during`).
bool has_ended(pid_t pid);

// Whether a file whose path holds `name` ("libdebuginfod") is mapped into this process.
bool self_maps(const std::string& name);

}  // namespace pmclog_test
