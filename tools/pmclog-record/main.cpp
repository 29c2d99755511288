// pmclog-record: profiles a command, processes or the whole system with Linux
// perf_event_open and writes a FreeBSD hwpmc(4) log. Exit statuses: --help, exit_status.h.
#include "options.h"
#include "run_main.h"
#include "session.h"

namespace {
constexpr const char* kTool = "pmclog-record";
}

int main(int argc, char** argv) {
  using pmclog::tools::Exit;
  // The tool's own failures are 125, apart from the command's statuses it passes through.
  // Its stop signals end the recording cleanly (signals.h), so no cleanup handlers.
  auto body = [](int n, char** args) {
    const auto opt = record::parse_options(n, args);
    if (!opt) return 0;  // --help, --version
    if (opt->list_events) return record::list_events();
    return record::run_record(*opt);
  };
  return pmclog::tools::run_main({kTool, Exit::tool_failed, /*cleanup_on_signals=*/false}, argc,
                                 argv, body);
}
