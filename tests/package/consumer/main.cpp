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
  std::printf("%d records, %s\n", n, pmclog::describe(log->detection.abi).c_str());
  return 0;
}
