// pmclog-make-fixtures: writes (or, with --check, compares) the committed fixture logs
// fixtures/<gen>-<32|64>-<le|be>.pmclog and their listings <name>.expected.txt, and the
// narrow-address ones fixtures/narrow/<gen>-32in64-be.pmclog (format.md §19).
//
//   pmclog-make-fixtures FIXTURES_DIR          write all 20 ABIs
//   pmclog-make-fixtures --check FIXTURES_DIR  exit 1 if any file would change
//
// The listing is written from the values passed to the encoder and from docs/format.md's type
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
#include "pmclog/container.h"
#include "pmclog/encode.h"

using namespace codec_test;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The header word as format.md §3.1 says it must be: 0xEE, type, length, in file byte order.
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
         (abi.narrow() ? " address_slot=" + std::to_string(abi.slot_width()) : std::string()) +
         " byte_order=" + (abi.byte_order == pmclog::ByteOrder::little ? "little" : "big") +
         "-endian time_t=" + std::to_string(abi.time_width) + "\n";
}

}  // namespace

// The PMCL container fixtures (format.md §18): an amd64 container in front of the M10
// 64-bit little-endian log (SYSINFO with reserved fields and a stale byte after the model's
// NUL, two CPUID leaves, PMCINFO, an unknown type 9, DONE: the stream at 300) and a ppc64
// one in front of the big-endian log (SYSINFO, DONE: the stream at 216). The listing's
// offsets are summed from the format.md §18 sizes here, not read back from the encoder.
struct ContainerFixture {
  std::string stem;
  Abi abi;
  pmclog::Container c;
};

std::vector<ContainerFixture> container_fixtures() {
  std::vector<ContainerFixture> v;
  for (const Abi& abi : all_abis()) {
    if (abi.generation != pmclog::Generation::M10 || abi.address_width != 8) continue;
    const bool le = abi.byte_order == pmclog::ByteOrder::little;
    pmclog::Container c;
    c.byte_order = abi.byte_order;
    c.arch = static_cast<uint16_t>(le ? pmclog::ContainerArch::amd64 : pmclog::ContainerArch::ppc64);
    auto si = pmclog::make_sysinfo({le ? "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz" : "POWER9",
                                    "14.3-RELEASE", "5f1c0e3a9b7d2468"});
    if (le) {
      si.reserved8 = 0xA5;
      si.reserved32 = 0xDEADBEEF;
      si.payload[41] = 0x7F;  // after the 40-byte model's NUL: stale, carried as it is
    }
    c.infos.push_back(si);
    if (le) {
      const pmclog::CpuidLeaf leaves[] = {{0x16, 0x756e6547, 0x6c65746e, 0x49656e69},
                                          {0x00050654, 0x00200800, 0x7ffefbff, 0xbfebfbff}};
      c.infos.push_back(pmclog::make_cpuid(leaves, c.byte_order));
      c.infos.push_back(pmclog::make_pmcinfo({65536, "INST_RETIRED.ANY"}, c.byte_order));
      pmclog::ContainerInfo unknown;
      unknown.type = 9;
      unknown.payload = {'x', 'y', 'z'};
      c.infos.push_back(unknown);
    }
    c.infos.push_back(pmclog::make_done());
    v.push_back({"PMCL-" + fixture_stem(abi), abi, std::move(c)});
  }
  return v;
}

// One listing line per container part, from the values given (sizes from format.md §18).
std::string container_listing(const pmclog::Container& c, uint64_t& size) {
  std::string s = "# container: PMCL offset=0 magic=0x504d434c byte_order=" +
                  std::string(pmclog::byte_order_name(c.byte_order)) + " version=" +
                  std::to_string(c.version) + " arch=" + std::to_string(c.arch) + "\n";
  size = 8;
  for (const auto& i : c.infos) {
    s += "# container-info: offset=" + std::to_string(size) + " type=" + std::to_string(i.type) +
         " length=" + std::to_string(i.payload.size()) + " reserved8=" +
         std::to_string(i.reserved8) + " reserved32=" + std::to_string(i.reserved32) + "\n";
    size += 8 + i.payload.size();
  }
  s += "# container: the stream starts at offset " + std::to_string(size) + "\n";
  return s;
}

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
  std::vector<Abi> abis = all_abis();
  for (const Abi& a : narrow_abis()) abis.push_back(a);
  for (const Abi& abi : abis) {
    const std::string stem = fixture_stem(abi);
    std::vector<uint8_t> bytes;
    std::string listing = "# expected records for " + stem +
                          ".pmclog, written by tests/codec/make_fixtures.cpp with libpmclog's encoder\n" +
                          abi_comment(abi) +
                          "# format: as fixtures/golden/*.expected.txt; type codes and lengths from docs/format.md, not from the decoder\n"
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
        std::fprintf(stderr, "%s rec=%zu %s: encoder wrote %u bytes / header, docs/format.md says %u bytes type %d\n",
                     stem.c_str(), i, format_name(r.kind), static_cast<unsigned>(*got), want, type);
        ++failures;
      }
      listing += listing_line(abi, r, static_cast<int>(i), off, want);
    }
    listing += "# total: " + std::to_string(records.size()) + " records, " +
               std::to_string(bytes.size()) + " bytes\n";

    const std::string log_path = dir + "/" + fixture_relpath(abi) + ".pmclog";
    const std::string txt_path = dir + "/" + fixture_relpath(abi) + ".expected.txt";
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
  for (const ContainerFixture& f : container_fixtures()) {
    uint64_t size = 0;
    std::string listing = "# expected container and records for " + f.stem +
                          ".pmclog, written by tests/codec/make_fixtures.cpp with libpmclog's encoder\n" +
                          abi_comment(f.abi) + container_listing(f.c, size);
    std::vector<uint8_t> bytes;
    if (!pmclog::encode_container(f.c, bytes).ok() || bytes.size() != size) {
      std::fprintf(stderr, "%s: the container encoder wrote %zu bytes, docs/format.md says %llu\n",
                   f.stem.c_str(), bytes.size(), static_cast<unsigned long long>(size));
      ++failures;
    }
    const auto records = fixture_records(f.abi);
    for (size_t i = 0; i < records.size(); ++i) {
      const uint64_t off = bytes.size();
      const uint32_t want = kernel_length(f.abi, records[i].kind, records[i].text.size(),
                                          records[i].pcs.size());
      if (!pmclog::encode(records[i], f.abi, bytes)) ++failures;
      listing += listing_line(f.abi, records[i], static_cast<int>(i), off, want);
    }
    listing += "# total: " + std::to_string(records.size()) + " records, " +
               std::to_string(bytes.size()) + " bytes\n";
    // In a folder of their own: the ABI fixtures' tests take every fixtures/*.pmclog.
    const std::string log_path = dir + "/container/" + f.stem + ".pmclog";
    const std::string txt_path = dir + "/container/" + f.stem + ".expected.txt";
    const std::string log_str(bytes.begin(), bytes.end());
    if (check) {
      if (read_all(log_path) != log_str || read_all(txt_path) != listing) {
        std::fprintf(stderr, "%s or its listing differs from what the encoder writes now\n",
                     log_path.c_str());
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
