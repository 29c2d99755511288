// pmclog-report's command line, in the tools' shared language (tools/common/cli.h): -h/-V,
// the ABI options, usage errors as "pmclog-report: MSG" and "Try 'pmclog-report --help'."
// with exit 2.
#pragma once

#include <string>
#include <vector>

#include "pmcprofile/session.h"
#include "pmcprofile/views.h"

namespace report {

enum class OutputKind { top, folded };

struct Output {
  OutputKind kind = OutputKind::top;
  std::string file = "-";
};

struct Config {
  std::vector<std::string> inputs;
  std::vector<Output> outputs;
  pmcprofile::Options profile;
  pmcprofile::GroupBy by;
  pmcprofile::SortKey sort = pmcprofile::SortKey::self;
  size_t limit = 0;  // 0: every row
  bool comm_frame = false;
  bool progress = true;
};

// Exit status to return now (help, version, usage error), or -1 to go on with `cfg`.
int parse_options(int argc, char** argv, Config& cfg);

}  // namespace report
