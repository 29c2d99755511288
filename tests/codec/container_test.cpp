// The PMCL container (format.md §18): hand-written bytes in both byte orders, parse and
// encode byte-exact, the JSON Lines form lossless, damaged variants with their offsets, and
// open_log over a mapped file, a pipe and gzip input with record offsets that stay file
// offsets.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "pmclog/container.h"
#include "pmclog/open.h"
#include "listing.h"
#include "test_util.h"

namespace {

using codec_test::hex;
using codec_test::PipeFeed;
using codec_test::read_all;
using codec_test::ScratchDir;
using codec_test::slurp_bytes;
using codec_test::write_file;
using pmclog::ByteOrder;

std::string hex_of(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string h;
  for (unsigned char c : s) {
    h += d[c >> 4];
    h += d[c & 15];
  }
  return h;
}

// 64 bytes as hex: the string, its NUL, `stale` (hex of bytes a recorder's uninitialised
// buffer left after the NUL), zeros.
std::string str64(const std::string& s, const std::string& stale = "") {
  std::string h = hex_of(s) + "00" + stale;
  while (h.size() < 128) h += "00";
  return h;
}

// amd64, little-endian: header, SYSINFO (reserved bytes and a stale byte set), CPUID with two
// leaves, an unknown type 9, PMCINFO, DONE. 8 + 200 + 40 + 11 + 33 + 8 = 300 bytes.
std::vector<uint8_t> x86_le() {
  return hex("4C 43 4D 50  00 00  01 00"                 // magic, version 0, arch 1 (amd64)
             "01 A5 C0 00  EF BE AD DE" +                 // SYSINFO, rsv 0xa5, 192, rsv
             str64("Intel(R) Xeon(R) Gold 6130", "7f") + str64("14.3-RELEASE") +
             str64("0123abcd") +
             "03 00 20 00  00 00 00 00"                   // CPUID, 32 bytes: 2 leaves
             "16 00 00 00  47 65 6E 75  6E 74 65 6C  69 6E 65 49"
             "54 06 05 00  00 08 20 00  FF FB FE 7F  FF FB EB BF"
             "09 00 03 00  00 00 00 00  61 62 63"         // unknown type 9, 3 bytes
             "02 00 19 00  00 00 00 00"                   // PMCINFO, 25 bytes
             "00 00 01 00 00 00 00 00" + hex_of("INST_RETIRED.ANY") + "00"
             "00 00 00 00  00 00 00 00");                 // DONE
}

// ppc64, big-endian: header, SYSINFO, DONE: the stream at 216 (format.md §18).
std::vector<uint8_t> ppc_be() {
  return hex("50 4D 43 4C  00 00  00 03"
             "01 00 00 C0  00 00 00 00" +
             str64("POWER9") + str64("14.3-RELEASE") + str64("") +
             "00 00 00 00  00 00 00 00");
}

std::vector<uint8_t> plus(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A path in this process's scratch folder, removed when the test program ends.
std::string temp(const std::string& name) {
  static const ScratchDir dir;
  return dir.file(name);
}

TEST(Container, X86LittleEndianFieldByField) {
  const auto b = x86_le();
  ASSERT_EQ(b.size(), 300u);
  const auto p = pmclog::parse_container(b);
  ASSERT_TRUE(p.container);
  const auto& c = *p.container;
  EXPECT_EQ(c.byte_order, ByteOrder::little);
  EXPECT_EQ(c.version, 0);
  EXPECT_EQ(c.arch, 1);
  EXPECT_EQ(c.size, 300u);
  ASSERT_EQ(c.infos.size(), 5u);
  EXPECT_EQ(c.infos[0].offset, 8u);
  EXPECT_EQ(c.infos[0].reserved8, 0xA5);
  EXPECT_EQ(c.infos[0].reserved32, 0xDEADBEEFu);
  const auto si = pmclog::sysinfo_of(c.infos[0]);
  ASSERT_TRUE(si);
  EXPECT_EQ(si->cpu_model, "Intel(R) Xeon(R) Gold 6130");
  EXPECT_EQ(si->os_release, "14.3-RELEASE");
  EXPECT_EQ(si->kernel_build_id, "0123abcd");
  EXPECT_EQ(c.infos[1].offset, 208u);
  const auto leaves = pmclog::cpuid_leaves_of(c.infos[1], c.byte_order);
  ASSERT_EQ(leaves.size(), 2u);
  EXPECT_EQ(leaves[0].eax, 0x16u);
  EXPECT_EQ(leaves[0].ebx, 0x756e6547u);  // "Genu"
  EXPECT_EQ(leaves[1].eax, 0x00050654u);
  EXPECT_EQ(leaves[1].edx, 0xBFEBFBFFu);
  EXPECT_EQ(c.infos[2].type, 9);
  EXPECT_EQ(c.infos[2].offset, 248u);
  EXPECT_EQ(c.infos[3].offset, 259u);
  const auto pm = pmclog::pmcinfo_of(c.infos[3], c.byte_order);
  ASSERT_TRUE(pm);
  EXPECT_EQ(pm->rate, 65536u);
  EXPECT_EQ(pm->event, "INST_RETIRED.ANY");
  EXPECT_EQ(c.infos[4].type, 0);
  EXPECT_EQ(c.infos[4].offset, 292u);
  // The unknown type is reported (not fatal), with its offset; nothing else is wrong.
  ASSERT_EQ(p.issues.size(), 1u);
  EXPECT_EQ(p.issues[0].problem, pmclog::ContainerProblem::unknown_info);
  EXPECT_EQ(p.issues[0].offset, 248u);
  EXPECT_NE(p.issues[0].message.find("offset 248"), std::string::npos);
  EXPECT_FALSE(p.fatal());
  // Encoding gives back every byte, the reserved and stale ones included.
  std::vector<uint8_t> again;
  ASSERT_TRUE(pmclog::encode_container(c, again).ok());
  EXPECT_EQ(again, b);
}

TEST(Container, BigEndianWithoutCpuid) {
  const auto b = ppc_be();
  ASSERT_EQ(b.size(), 216u);
  const auto p = pmclog::parse_container(b);
  ASSERT_TRUE(p.container);
  EXPECT_EQ(p.container->byte_order, ByteOrder::big);
  EXPECT_EQ(p.container->arch, 3);
  EXPECT_EQ(p.container->size, 216u);
  ASSERT_EQ(p.container->infos.size(), 2u);
  EXPECT_EQ(pmclog::sysinfo_of(p.container->infos[0])->cpu_model, "POWER9");
  EXPECT_TRUE(p.issues.empty());
  std::vector<uint8_t> again;
  pmclog::encode_container(*p.container, again);
  EXPECT_EQ(again, b);
}

TEST(Container, BuildersMatchHandBytes) {
  // make_* in the other byte order: PMCINFO's rate and CPUID's words swap, the rest does not.
  const pmclog::CpuidLeaf leaf{0x16, 0x756e6547, 0x6c65746e, 0x49656e69};
  EXPECT_EQ(pmclog::make_cpuid({&leaf, 1}, ByteOrder::big).payload,
            hex("00 00 00 16  75 6E 65 47  6C 65 74 6E  49 65 6E 69"));
  EXPECT_EQ(pmclog::make_pmcinfo({0x10000, "x"}, ByteOrder::big).payload,
            hex("00 00 00 00 00 01 00 00  78 00"));
  pmclog::Container c;
  c.byte_order = ByteOrder::big;
  c.arch = 3;
  c.infos.push_back(pmclog::make_sysinfo({"POWER9", "14.3-RELEASE", ""}));
  c.infos.push_back(pmclog::make_done());
  std::vector<uint8_t> out;
  pmclog::encode_container(c, out);
  EXPECT_EQ(out, ppc_be());
  // Strings longer than 63 bytes are cut so that the NUL fits.
  const auto si = pmclog::make_sysinfo({std::string(80, 'a'), "", ""});
  EXPECT_EQ(pmclog::sysinfo_of(si)->cpu_model, std::string(63, 'a'));
}

TEST(Container, NoMagicIsNoContainer) {
  EXPECT_FALSE(pmclog::parse_container(hex("70 00 03 EE  00 00 00 00")).container);
  EXPECT_FALSE(pmclog::parse_container(hex("4C 43 4D")).container);
}

struct Damage {
  const char* name;
  std::vector<uint8_t> bytes;
  pmclog::ContainerProblem problem;
  uint64_t offset;
  const char* words;  // in the message
};

std::vector<Damage> damaged() {
  const auto good = x86_le();
  auto v1 = good;
  v1[4] = 1;
  auto sys100 = good;
  sys100[10] = 100;  // SYSINFO length 100 (the payload then frames differently)
  return {
      {"truncated header", {good.begin(), good.begin() + 6}, pmclog::ContainerProblem::truncated, 0, "offset 0"},
      {"truncated info header", {good.begin(), good.begin() + 12}, pmclog::ContainerProblem::truncated, 8, "offset 8"},
      {"length past the end", {good.begin(), good.begin() + 100}, pmclog::ContainerProblem::past_end, 8,
       "ends at offset 208, past the end of the data at offset 100"},
      {"no DONE", {good.begin(), good.begin() + 292}, pmclog::ContainerProblem::no_done, 292, "offset 292"},
      {"version 1", v1, pmclog::ContainerProblem::bad_version, 4, "version 1 at offset 4"},
      {"SYSINFO length", sys100, pmclog::ContainerProblem::sysinfo_length, 8, "length 100"},
  };
}

TEST(Container, DamagedVariantsNameTheOffset) {
  for (const Damage& d : damaged()) {
    SCOPED_TRACE(d.name);
    const auto p = pmclog::parse_container(d.bytes);
    ASSERT_TRUE(p.container);
    const auto* f = p.first_fatal();
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->problem, d.problem);
    EXPECT_EQ(f->offset, d.offset);
    EXPECT_NE(f->message.find(d.words), std::string::npos) << f->message;
    // open_log refuses it with the same message, naming the file and the offset.
    const std::string path = temp("damaged.pmcl");
    write_file(path, plus(d.bytes, {}));
    std::vector<pmclog::ContainerIssue> issues;
    auto ol = pmclog::open_log(path, {}, &issues);
    ASSERT_FALSE(ol.ok());
    EXPECT_EQ(ol.error().code, pmclog::Errc::bad_abi);
    EXPECT_EQ(ol.error().offset, d.offset);
    EXPECT_NE(ol.error().message.find(d.words), std::string::npos) << ol.error().message;
    EXPECT_FALSE(issues.empty());
  }
}

TEST(Container, CpuidLengthNotWholeLeavesIsReportedNotFatal) {
  auto b = hex("4C 43 4D 50  00 00 01 00  03 00 05 00 00 00 00 00  01 02 03 04 05"
               "00 00 00 00 00 00 00 00");
  const auto p = pmclog::parse_container(b);
  ASSERT_EQ(p.issues.size(), 1u);
  EXPECT_EQ(p.issues[0].problem, pmclog::ContainerProblem::cpuid_length);
  EXPECT_EQ(p.issues[0].offset, 8u);
  EXPECT_FALSE(p.fatal());
  EXPECT_EQ(p.container->size, b.size());
  // Carried as raw bytes: the JSON form gives them back.
  std::string j;
  pmclog::append_container_info_json(p.container->infos[0], ByteOrder::little, j);
  EXPECT_NE(j.find("\"payload_hex\":\"0102030405\""), std::string::npos) << j;
}

TEST(Container, JsonLinesAreLossless) {
  for (const auto& b : {x86_le(), ppc_be()}) {
    const auto c = *pmclog::parse_container(b).container;
    std::string head;
    pmclog::append_container_header_json(c, head);
    auto h = pmclog::parse_container_json(head, ByteOrder::little);
    ASSERT_TRUE(h.ok()) << h.error().message;
    ASSERT_TRUE(h->header);
    EXPECT_TRUE(h->has_byte_order);
    EXPECT_EQ(h->head.byte_order, c.byte_order);
    pmclog::Container back = h->head;
    for (const auto& i : c.infos) {
      std::string line;
      pmclog::append_container_info_json(i, c.byte_order, line);
      EXPECT_TRUE(pmclog::is_container_json_line(line));
      auto r = pmclog::parse_container_json(line, c.byte_order);
      ASSERT_TRUE(r.ok()) << r.error().message << " in " << line;
      back.infos.push_back(r->info);
    }
    std::vector<uint8_t> out;
    pmclog::encode_container(back, out);
    EXPECT_EQ(out, b);
  }
  // The stale byte after the model's NUL and the reserved fields are members.
  std::string line;
  pmclog::append_container_info_json(pmclog::parse_container(x86_le()).container->infos[0],
                                     ByteOrder::little, line);
  EXPECT_NE(line.find("\"reserved8\":165,\"reserved32\":3735928559"), std::string::npos) << line;
  EXPECT_NE(line.find("\"cpu_model_hex\":\"" + str64("Intel(R) Xeon(R) Gold 6130", "7f") + "\""),
            std::string::npos) << line;
  EXPECT_EQ(line.find("os_release_hex"), std::string::npos) << line;  // clean: no hex
}

TEST(Container, JsonReaderIsStrict) {
  auto bad = pmclog::parse_container_json(
      R"({"type":"pmcl-info","info_type":"sysinfo","cpu_model":"a","os_release":"b"})",
      ByteOrder::little);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("kernel_build_id"), std::string::npos);
  auto unknown = pmclog::parse_container_json(R"({"type":"pmcl-header","arhc":"amd64"})",
                                              ByteOrder::little);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("arhc"), std::string::npos);
  auto len = pmclog::parse_container_json(
      R"({"type":"pmcl-info","info_type":"cpuid","length":20,"leaves":[[1,2,3,4]]})",
      ByteOrder::little);
  ASSERT_FALSE(len.ok());
  EXPECT_NE(len.error().message.find("length"), std::string::npos);
  EXPECT_FALSE(pmclog::is_container_json_line(R"({"type":"map-in","path":"pmcl-x"})"));
  // A version the reader refuses is refused here too, so that pmclog-write never makes a
  // container pmclog's own tools cannot open (found by the jsonl fuzz target).
  auto version = pmclog::parse_container_json(
      R"({"type":"pmcl-header","byte_order":"little","version":5,"arch":"amd64"})",
      ByteOrder::little);
  ASSERT_FALSE(version.ok());
  EXPECT_NE(version.error().message.find("'version': 5 is above 0"), std::string::npos)
      << version.error().message;
  EXPECT_TRUE(pmclog::parse_container_json(
                  R"({"type":"pmcl-header","byte_order":"little","version":0,"arch":"amd64"})",
                  ByteOrder::little)
                  .ok());
}

// A small M10 amd64 stream after the container: INITIALIZE then CLOSELOG.
std::vector<uint8_t> with_log(const std::vector<uint8_t>& container, const std::string& stem) {
  return plus(container, slurp_bytes(codec_test::fixtures_dir() + "/" + stem + ".pmclog"));
}

TEST(Container, OpenLogKeepsFileOffsetsMappedPipedAndCompressed) {
  struct Case {
    std::vector<uint8_t> container;
    const char* stem;
    uint64_t start;
  };
  for (const Case& k : {Case{x86_le(), "M10-64-le", 300}, Case{ppc_be(), "M10-64-be", 216},
                        Case{x86_le(), "L3-32-le", 300}}) {
    SCOPED_TRACE(k.stem);
    const auto bytes = with_log(k.container, k.stem);
    const auto plain = slurp_bytes(codec_test::fixtures_dir() + "/" + std::string(k.stem) + ".pmclog");
    const std::string path = temp(std::string(k.stem) + ".pmcl");
    write_file(path, bytes);
    auto bare = pmclog::open_log(codec_test::fixtures_dir() + "/" + k.stem + ".pmclog");
    ASSERT_TRUE(bare.ok());
    const auto want = read_all(*bare->reader);
    ASSERT_GT(want.size(), 2u);
    const std::string gz = path + ".gz";
    pmclog_test::RunOptions to_gz;
    to_gz.stdout_path = gz;
    ASSERT_EQ(pmclog_test::run({"gzip", "-c", path}, to_gz).status, 0);
    for (const std::string& how : {std::string("mapped"), std::string("pipe"), std::string("gzip")}) {
      SCOPED_TRACE(how);
      std::string name = how == "gzip" ? gz : path;
      std::optional<PipeFeed> feed;
      if (how == "pipe") {
        // A pipe: the streaming reader.
        feed.emplace(bytes);
        ASSERT_GE(feed->read_end(), 0);
        name = "/dev/fd/" + std::to_string(feed->read_end());
      }
      auto ol = pmclog::open_log(name);
      ASSERT_TRUE(ol.ok()) << ol.error().message;
      EXPECT_EQ(ol->mapped, how == "mapped");
      ASSERT_TRUE(ol->detection.container);
      EXPECT_EQ(ol->detection.stream_offset, k.start);
      EXPECT_EQ(ol->reader->offset(), k.start);
      EXPECT_EQ(ol->detection.abi, bare->detection.abi);
      const auto got = read_all(*ol->reader);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].offset, want[i].offset + k.start);
        EXPECT_EQ(got[i].raw, want[i].raw);
      }
      if (feed) ::close(feed->read_end());
    }
    (void)plain;
  }
}

TEST(Container, DetectionSaysWhichEvidenceDecided) {
  const auto b = with_log(x86_le(), "M10-64-le");
  auto d = pmclog::detect_abi(b);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->stream_offset, 300u);
  bool order = false, width = false;
  for (const auto& e : d->evidence) {
    order |= e.find("byte order: little-endian (the PMCL container's magic") == 0;
    width |= e.find("address width: 8 bytes (the PMCL container's arch amd64") == 0;
  }
  EXPECT_TRUE(order);
  EXPECT_TRUE(width);
  // The magic's byte order wins even when a hint-free stream would say the same; a 32-bit
  // stream behind an amd64 container is outvoted by its records.
  const auto b32 = with_log(x86_le(), "M10-32-le");
  auto d32 = pmclog::detect_abi(b32);
  ASSERT_TRUE(d32.ok());
  EXPECT_EQ(d32->abi.address_width, 4);
  // Arch "other" gives no width: the records decide, and the evidence says so.
  auto other = x86_le();
  other[6] = 0;
  auto d0 = pmclog::detect_abi(with_log(other, "M10-64-le"));
  ASSERT_TRUE(d0.ok());
  bool said = false;
  for (const auto& e : d0->evidence) said |= e.find("tells no width") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(Container, EmptyStreamAfterContainer) {
  auto d = pmclog::detect_abi(ppc_be());
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->empty);
  EXPECT_EQ(d->stream_offset, 216u);
}

TEST(Container, HostContainerParses) {
  const auto c = pmclog::host_container(ByteOrder::little);
  std::vector<uint8_t> b;
  ASSERT_TRUE(pmclog::encode_container(c, b).ok());
  const auto p = pmclog::parse_container(b);
  ASSERT_TRUE(p.container);
  EXPECT_TRUE(p.issues.empty());
  EXPECT_EQ(p.container->size, b.size());
  EXPECT_EQ(p.container->arch, pmclog::host_arch());
  const auto si = pmclog::sysinfo_of(p.container->infos.at(0));
  ASSERT_TRUE(si);
  EXPECT_FALSE(si->os_release.empty());
#if defined(__x86_64__)
  EXPECT_EQ(p.container->arch, 1);
  ASSERT_GE(p.container->infos.size(), 3u);
  EXPECT_EQ(p.container->infos[1].type, 3);
  // 16 bytes per leaf, from leaf 0, whose ebx,edx,ecx spell the vendor.
  const auto leaves = pmclog::cpuid_leaves_of(p.container->infos[1], ByteOrder::little);
  ASSERT_FALSE(leaves.empty());
  EXPECT_GE(leaves[0].eax, 1u);
  EXPECT_EQ(p.container->size, 224u + 16u * leaves.size());  // format.md §18
#endif
}

// The committed container fixtures decode to exactly their listings, record offsets being
// file offsets, and the container's parts sit where the listing says.
TEST(Container, FixturesDecodeToTheirListings) {
  for (const std::string stem : {"PMCL-M10-64-le", "PMCL-M10-64-be"}) {
    SCOPED_TRACE(stem);
    const std::string base = codec_test::fixtures_dir() + "/container/" + stem;
    const std::string text = codec_test::slurp(base + ".expected.txt");
    const auto listing = codec_test::parse_listing(text);
    ASSERT_TRUE(listing.error.empty()) << listing.error;
    auto ol = pmclog::open_log(base + ".pmclog");
    ASSERT_TRUE(ol.ok()) << ol.error().message;
    ASSERT_TRUE(ol->detection.container);
    const auto& c = *ol->detection.container;
    const uint64_t start = stem.find("-le") != std::string::npos ? 300 : 216;
    EXPECT_EQ(c.size, start);
    EXPECT_NE(text.find("the stream starts at offset " + std::to_string(start)), std::string::npos);
    for (const auto& i : c.infos)
      EXPECT_NE(text.find("container-info: offset=" + std::to_string(i.offset) + " type=" +
                          std::to_string(i.type) + " length=" + std::to_string(i.payload.size())),
                std::string::npos);
    pmclog::Record r;
    pmclog::Error e;
    size_t n = 0;
    while (ol->reader->next(r, e) == pmclog::Step::record) {
      ASSERT_LT(n, listing.records.size());
      EXPECT_TRUE(codec_test::matches_listing(listing.records[n], r, ol->reader->abi()));
      ++n;
    }
    EXPECT_EQ(n, listing.records.size());
    EXPECT_EQ(listing.records.front().off, start);
  }
}

}  // namespace
