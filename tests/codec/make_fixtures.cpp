// pmclog-make-fixtures: writes (or, with --check, compares) the committed fixture logs
// fixtures/<gen>-<32|64>-<le|be>.pmclog and their listings <name>.expected.txt.
//
//   pmclog-make-fixtures FIXTURES_DIR          write all 20 ABIs
//   pmclog-make-fixtures --check FIXTURES_DIR  exit 1 if any file would change
//
// The listing is written from the values passed to the encoder and from FORMAT.md's type
// numbers and lengths (format_rules.h), never from decoding; the encoder's output length
// and header word are checked against the same rules, so a wrong encoder stops here.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_records.h"
#include "format_rules.h"
#include "listing_writer.h"
#include "pmclog/encode.h"

using namespace codec_test;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The header word as FORMAT.md §2 says it must be: 0xEE, type, length, in file byte order.
bool header_ok(const Abi& abi, const uint8_t* p, int type, uint32_t len) {
  const uint32_t want = 0xEEu << 24 | static_cast<uint32_t>(type) << 16 | len;
  uint32_t got = 0;
  for (int i = 0; i < 4; ++i) {
    const int idx = abi.byte_order == pmclog::ByteOrder::little ? 3 - i : i;
    got = got << 8 | p[idx];
  }
  return got == want;
}

std::string abi_comment(const Abi& abi) {
  return std::string("# abi: generation=") + fixture_stem(abi).substr(0, fixture_stem(abi).find('-')) +
         " address_width=" + std::to_string(abi.address_width) +
         " byte_order=" + (abi.byte_order == pmclog::ByteOrder::little ? "little" : "big") +
         "-endian time_t=" + std::to_string(abi.time_width) + "\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool check = false;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--check") check = true;
    else dir = a;
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: pmclog-make-fixtures [--check] FIXTURES_DIR\n");
    return 2;
  }
  int failures = 0;
  for (const Abi& abi : all_abis()) {
    const std::string stem = fixture_stem(abi);
    std::vector<uint8_t> bytes;
    std::string listing = "# expected records for " + stem +
                          ".pmclog, written by tests/codec/make_fixtures.cpp with libpmclog's encoder\n" +
                          abi_comment(abi) +
                          "# format: as fixtures/golden/*.expected.txt; type codes and lengths from FORMAT.md, not from the decoder\n"
                          "# note: PMCALLOCATE lines carry no evname: that name comes from libpmc's event tables, not from the record\n";
    const auto records = fixture_records(abi);
    for (size_t i = 0; i < records.size(); ++i) {
      const auto& r = records[i];
      const uint64_t off = bytes.size();
      const uint32_t want = kernel_length(abi, r.kind, r.text.size(), r.pcs.size());
      auto got = pmclog::encode(r, abi, bytes);
      if (!got) {
        std::fprintf(stderr, "%s rec=%zu: encode failed: %s\n", stem.c_str(), i,
                     got.error().message.c_str());
        ++failures;
        continue;
      }
      const int type = type_code(abi.generation, r.kind).value_or(-1);
      if (*got != want || bytes.size() - off != want || !header_ok(abi, bytes.data() + off, type, want)) {
        std::fprintf(stderr, "%s rec=%zu %s: encoder wrote %u bytes / header, FORMAT.md says %u bytes type %d\n",
                     stem.c_str(), i, format_name(r.kind), static_cast<unsigned>(*got), want, type);
        ++failures;
      }
      listing += listing_line(abi, r, static_cast<int>(i), off, want);
    }
    listing += "# total: " + std::to_string(records.size()) + " records, " +
               std::to_string(bytes.size()) + " bytes\n";

    const std::string log_path = dir + "/" + stem + ".pmclog";
    const std::string txt_path = dir + "/" + stem + ".expected.txt";
    const std::string log_str(bytes.begin(), bytes.end());
    if (check) {
      if (read_all(log_path) != log_str) {
        std::fprintf(stderr, "%s differs from what the encoder writes now\n", log_path.c_str());
        ++failures;
      }
      if (read_all(txt_path) != listing) {
        std::fprintf(stderr, "%s differs from the generated listing\n", txt_path.c_str());
        ++failures;
      }
    } else {
      std::ofstream(log_path, std::ios::binary) << log_str;
      std::ofstream(txt_path, std::ios::binary) << listing;
    }
  }
  if (failures) std::fprintf(stderr, "%d problem(s)\n", failures);
  return failures ? 1 : 0;
}
