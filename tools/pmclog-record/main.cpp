// pmclog-record: profiles a command, processes or the whole system with Linux
// perf_event_open and writes a FreeBSD hwpmc(4) log. Exit statuses: options.h.
#include <cstdio>
#include <exception>

#include "options.h"
#include "pmclog/text.h"
#include "session.h"

int main(int argc, char** argv) {
  int code = 0;
  auto opt = record::parse_options(argc, argv, code);
  if (!opt) return code;
  try {
    if (opt->list_events) return record::list_events();
    return record::run_record(*opt);
  } catch (const std::exception& e) {
    // bad_alloc and the like: the tool's own failure, not the command's status
    std::fprintf(stderr, "pmclog-record: %s\n", pmclog::terminal_safe(e.what()).c_str());
    return record::kExitFailed;
  }
}
