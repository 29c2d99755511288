// Checks a log held in memory: detects its ABI, walks every record with a zero-copy reader
// and reports each damaged range by byte offset, resynchronizing after it.
//   validate_buffer LOG      (the file is read into a buffer first, as a network receiver
//                             or a database blob would hold it)
#include <pmclog/pmclog.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: validate_buffer LOG\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::perror(argv[1]);
    return 2;
  }
  const std::vector<uint8_t> buf((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());

  // Detection looks at the bytes only; a PMCL container in front is found here too.
  auto det = pmclog::detect_abi(buf);
  if (!det) {
    std::fprintf(stderr, "%s\n", det.error().message.c_str());
    return 1;
  }
  // The reader views the buffer, which must outlive it and every Record it gives.
  auto reader = pmclog::LogReader::over(buf, det->abi);
  reader.discard(det->stream_offset);

  uint64_t records = 0, damaged = 0;
  pmclog::Record r;
  pmclog::Error err;
  for (;;) {
    const pmclog::Step st = reader.next(r, err);
    if (st == pmclog::Step::end) break;
    if (st == pmclog::Step::record) {
      ++records;
      continue;
    }
    ++damaged;
    std::printf("error at offset %llu: %s\n", static_cast<unsigned long long>(err.offset),
                err.message.c_str());
    // Step over the record when its length can be trusted, else look for the next header.
    if (!reader.skip()) {
      const pmclog::SkippedRange s = reader.resync();
      std::printf("skipped bytes %llu to %llu\n", static_cast<unsigned long long>(s.from),
                  static_cast<unsigned long long>(s.to));
    }
  }
  std::printf("%s: %llu records, %llu damaged\n", pmclog::describe(det->abi).c_str(),
              static_cast<unsigned long long>(records),
              static_cast<unsigned long long>(damaged));
  return damaged == 0 ? 0 : 1;
}
