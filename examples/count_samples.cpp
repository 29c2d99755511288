// Reads a log (any generation, byte order, compression) and counts the samples per pid.
//   count_samples LOG
#include <pmclog/pmclog.h>

#include <cstdio>
#include <map>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: count_samples LOG\n");
    return 2;
  }
  // open_log detects the ABI and maps or streams the input; errors are values.
  pmclog::Result<pmclog::OpenLog> log = pmclog::open_log(argv[1]);
  if (!log) {
    std::fprintf(stderr, "%s\n", log.error().message.c_str());
    return 2;
  }
  std::map<uint64_t, uint64_t> samples;  // pid -> samples
  pmclog::Error err;
  // The record is a view into the log's bytes, valid during the call only.
  const pmclog::Step end = log->reader->for_each(
      [&](const pmclog::Record& r) {
        if (r.kind == pmclog::Kind::callchain || r.kind == pmclog::Kind::pcsample)
          ++samples[r[pmclog::Field::pid]];
      },
      err);
  for (const auto& [pid, n] : samples)
    std::printf("pid %llu: %llu samples\n", static_cast<unsigned long long>(pid),
                static_cast<unsigned long long>(n));
  if (end == pmclog::Step::error) {
    // What came before the damage was counted; the message names the byte offset.
    std::fprintf(stderr, "%s: %s\n", log->display_name.c_str(), err.message.c_str());
    return 1;
  }
  return 0;
}
