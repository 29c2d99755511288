// Running pmclog-dump and the other tools for the dump tests, through the tests' support
// library (tests/common/support): the runner, files and scratch folders are its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace dumptest {

using pmclog_test::concat;
using pmclog_test::Ran;
using pmclog_test::run;
using pmclog_test::RunOptions;
using pmclog_test::shell_quote;
using pmclog_test::slurp;
using pmclog_test::stdin_piped;
using pmclog_test::words;
using pmclog_test::write_file;

inline const std::string kDump = PMCLOG_DUMP_EXE;

// bash -c CMDLINE, `$DUMP` in it standing for the tool's path: for the tests of pipelines and
// redirections (PIPESTATUS, `| head`, a shared file offset), nothing else.
Ran run_shell(const std::string& cmdline);
// The tool with these arguments, standard input from `stdin_file` (else /dev/null).
Ran run_dump(const std::vector<std::string>& args, const std::string& stdin_file = "");

// pmclog-dump --format=jsonl DUMP_ARGS | pmclog-write WRITE_ARGS -: the JSON Lines through
// a pipe, as a user would round-trip a log. The writer's status; both tools' stderr.
Ran jsonl_to_write(const std::vector<std::string>& dump_args,
                   const std::vector<std::string>& write_args, const RunOptions& dump_in = {});

// Whether two files hold the same bytes (as cmp(1) says).
inline bool same_bytes(const std::string& a, const std::string& b) { return slurp(a) == slurp(b); }

std::string fixture(const std::string& rel);  // PMCLOG_FIXTURES_DIR/rel
std::string temp_dir();  // a scratch folder for this test process, removed at its exit
std::vector<std::string> lines(const std::string& s);

}  // namespace dumptest
