// A program outside the project, built against the installed package.
#include <pmclog/pmclog.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto log = pmclog::open_log(argv[1]);
  if (!log.ok()) {
    std::fprintf(stderr, "%s\n", log.error().message.c_str());
    return 1;
  }
  pmclog::Record r;
  pmclog::Error e;
  int n = 0;
  while (log->reader->next(r, e) == pmclog::Step::record) ++n;
  if (e) return 1;
  // Again through for_each, whose fast path is inline in the installed headers.
  auto again = pmclog::open_log(argv[1]);
  int m = 0;
  if (!again.ok() || again->reader->for_each([&](const pmclog::Record&) { ++m; }, e) != pmclog::Step::end)
    return 1;
  if (m != n) return 1;
  std::printf("%d records, %s\n", n, pmclog::describe(log->detection.abi).c_str());
  return 0;
}
