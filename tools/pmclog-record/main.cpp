// pmclog-record: profiles a command, processes or the whole system with Linux
// perf_event_open and writes a FreeBSD hwpmc(4) log (issue 6).
#include "options.h"
#include "session.h"

int main(int argc, char** argv) {
  int code = 0;
  auto opt = record::parse_options(argc, argv, code);
  if (!opt) return code;
  if (opt->list_events) return record::list_events();
  return record::run_record(*opt);
}
