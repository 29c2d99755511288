// Compressed and foreign input through open_log (open.h): xz and bzip2 read
// like gzip and zstd, from a path, a FIFO and standard input; other compressions and archives
// named by their magic; the zstd window cap; damage named by compression and decompressed
// offset, after every record decoded before it. The compressors are the Debian command-line
// tools (scripts/setup.sh installs them).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "listing.h"
#include "pmclog/open.h"
#include "test_util.h"

using namespace codec_test;
namespace fs = std::filesystem;

namespace {

struct Codec {
  const char* name;     // as in the error messages
  const char* command;  // compresses stdin to stdout (fixed option text)
  pmclog::Compression c;
};

const Codec kCodecs[] = {
    {"gzip", "gzip -c", pmclog::Compression::gzip},
    {"zstd", "zstd -q -c", pmclog::Compression::zstd},
    {"xz", "xz -c", pmclog::Compression::xz},
    {"bzip2", "bzip2 -1 -c", pmclog::Compression::bzip2},  // -1: 100 kB blocks, output sooner
};

class CompressedInput : public ::testing::Test {
 protected:
  std::string path(const std::string& leaf) const { return dir_.file(leaf); }

  static void write(const std::string& p, const std::vector<uint8_t>& b) { write_file(p, b); }

  // `command` < in > out; an empty result (with a failure) when the tool is missing.
  std::vector<uint8_t> compress(const std::string& command, const std::vector<uint8_t>& in) {
    const std::string src = path("in.raw"), out = path("out.cmp");
    write(src, in);
    pmclog_test::RunOptions o;
    o.stdin_path = src;
    o.stdout_path = out;
    const pmclog_test::Ran r = pmclog_test::run(pmclog_test::words(command), o);
    if (r.status != 0) {
      ADD_FAILURE() << command << " failed (scripts/setup.sh installs the compressors): " << r.err;
      return {};
    }
    return slurp_bytes(out);
  }

  ScratchDir dir_;
};

std::vector<Owned> plain_records(const std::vector<uint8_t>& bytes, const pmclog::Abi& abi) {
  auto rd = pmclog::LogReader::over(bytes, abi);
  return read_all(rd);
}

pmclog::Abi detected(const std::vector<uint8_t>& bytes) {
  auto det = pmclog::detect_abi(bytes);
  EXPECT_TRUE(det.ok());
  return det.ok() ? det->abi : pmclog::Abi{};
}

bool same_abi(const pmclog::Abi& a, const pmclog::Abi& b) {
  return a.generation == b.generation && a.address_width == b.address_width &&
         a.byte_order == b.byte_order && a.time_width == b.time_width;
}

// A log big enough to span many reads and several compressed blocks: a modern fixture's
// records repeated, each with its own TSC (any value is valid there, format.md §3.3) so that
// the compressed size grows with the log and a cut stream still holds whole blocks.
std::vector<uint8_t> big_log(size_t copies) {
  const auto one = slurp_bytes(fixtures_dir() + "/M10-64-le.pmclog");
  std::vector<uint64_t> starts;
  for (const Owned& r : plain_records(one, detected(one))) starts.push_back(r.offset);
  std::vector<uint8_t> out;
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < copies; ++i) {
    const size_t base = out.size();
    out.insert(out.end(), one.begin(), one.end());
    for (uint64_t at : starts)
      for (int k = 0; k < 8; ++k) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
        out[base + at + 8 + static_cast<size_t>(k)] = static_cast<uint8_t>(x);
      }
  }
  return out;
}

TEST_F(CompressedInput, EveryCompressionDecodesExactlyLikeThePlainFile) {
  for (const char* stem : {"M10-64-le", "M9-32-be", "L3-32-be", "L1-64-le", "L2-64-be"}) {
    const auto plain = slurp_bytes(fixtures_dir() + "/" + stem + ".pmclog");
    const auto want = plain_records(plain, detected(plain));
    ASSERT_FALSE(want.empty());
    for (const Codec& c : kCodecs) {
      SCOPED_TRACE(std::string(stem) + " " + c.name);
      const std::string file = path(std::string("log.") + c.name);
      write(file, compress(c.command, plain));
      auto ol = pmclog::open_log(file);
      ASSERT_TRUE(ol.ok()) << ol.error().message;
      EXPECT_EQ(ol->compression, c.c);
      EXPECT_STREQ(pmclog::compression_name(ol->compression), c.name);
      EXPECT_FALSE(ol->mapped);
      EXPECT_TRUE(same_abi(ol->detection.abi, detected(plain)));
      pmclog::Error err;
      const auto got = read_all(*ol->reader, &err);
      EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
      EXPECT_TRUE(got == want);
    }
  }
}

TEST_F(CompressedInput, ConcatenatedMembersAndABigLogDecode) {
  const auto plain = big_log(600);  // 578 kB: many buffer refills, several bzip2 blocks
  const auto mid = plain.begin() + static_cast<ptrdiff_t>(plain.size() / 2);  // between copies
  const auto first = std::vector<uint8_t>(plain.begin(), mid);
  const auto rest = std::vector<uint8_t>(mid, plain.end());
  const auto want = plain_records(plain, detected(plain));
  for (const Codec& c : kCodecs) {
    SCOPED_TRACE(c.name);
    auto bytes = compress(c.command, first);
    const auto second = compress(c.command, rest);  // gzip -c a >> b, cat a.xz b.xz, ...
    bytes.insert(bytes.end(), second.begin(), second.end());
    write(path("cat"), bytes);
    auto ol = pmclog::open_log(path("cat"));
    ASSERT_TRUE(ol.ok()) << ol.error().message;
    pmclog::Error err;
    const auto got = read_all(*ol->reader, &err);
    EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
    EXPECT_TRUE(got == want) << got.size() << " of " << want.size() << " records";
  }
}

TEST_F(CompressedInput, FifoAndStandardInputAreStreamed) {
  const auto plain = slurp_bytes(fixtures_dir() + "/M9-32-be.pmclog");
  const auto want = plain_records(plain, detected(plain));
  for (const Codec& c : kCodecs) {
    for (const bool via_stdin : {false, true}) {
      SCOPED_TRACE(std::string(c.name) + (via_stdin ? " stdin" : " fifo"));
      const auto bytes = compress(c.command, plain);
      const std::string fifo = path("fifo");
      fs::remove(fifo);
      ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
      std::thread writer([&] {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
        for (size_t off = 0; fd >= 0 && off < bytes.size();) {  // odd pieces straddle reads
          const size_t n = std::min<size_t>(7, bytes.size() - off);
          if (::write(fd, bytes.data() + off, n) != static_cast<ssize_t>(n)) break;
          off += n;
        }
        if (fd >= 0) ::close(fd);
      });
      int saved = -1;
      std::string name = fifo;
      if (via_stdin) {
        const int rd = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
        saved = ::dup(0);
        ::dup2(rd, 0);
        ::close(rd);
        name = "-";
      }
      {
        auto ol = pmclog::open_log(name);
        EXPECT_TRUE(ol.ok()) << (ol.ok() ? "" : ol.error().message);
        if (ol.ok()) {
          EXPECT_EQ(ol->compression, c.c);
          pmclog::Error err;
          const auto got = read_all(*ol->reader, &err);
          EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
          EXPECT_TRUE(got == want);
        }
      }
      writer.join();
      if (saved >= 0) {
        ::dup2(saved, 0);
        ::close(saved);
      }
    }
  }
}

TEST_F(CompressedInput, ForeignMagicIsNamed) {
  struct F {
    std::vector<uint8_t> magic;
    size_t at;
    const char* what;
  };
  const F cases[] = {
      {hex("04 22 4D 18"), 0, "lz4-compressed"},
      {hex("02 21 4C 18"), 0, "lz4-compressed (legacy frame format)"},
      {{'L', 'Z', 'I', 'P', 1}, 0, "lzip-compressed"},
      {hex("89 4C 5A 4F 00 0D 0A 1A 0A"), 0, "lzop-compressed"},
      {hex("1F 9D 90"), 0, ".Z-compressed (Unix compress)"},
      {hex("5D 00 00 80 00 FF FF FF"), 0,
       "lzma-compressed (the legacy .lzma format; xz -d reads it)"},
      {hex("37 7A BC AF 27 1C 00 04"), 0, "a 7z archive"},
      {hex("50 4B 03 04 14 00"), 0, "a zip archive"},
      {hex("50 4B 05 06 00 00"), 0, "a zip archive (empty)"},
      {{'R', 'a', 'r', '!', 0x1A, 0x07, 0x00}, 0, "a rar archive"},
      {{'!', '<', 'a', 'r', 'c', 'h', '>', '\n'}, 0, "an ar archive"},
      {{'0', '7', '0', '7', '0', '1'}, 0, "a cpio archive"},
      {{'u', 's', 't', 'a', 'r', 0, '0', '0'}, 257, "a tar archive"},
      {{'u', 's', 't', 'a', 'r', ' ', ' ', 0}, 257, "a tar archive"},
  };
  for (const F& f : cases) {
    SCOPED_TRACE(f.what);
    std::vector<uint8_t> bytes(1024, 'a');  // a tar header starts with a file name
    std::copy(f.magic.begin(), f.magic.end(), bytes.begin() + static_cast<ptrdiff_t>(f.at));
    const std::string file = path("foreign");
    write(file, bytes);
    auto ol = pmclog::open_log(file);
    ASSERT_FALSE(ol.ok());
    EXPECT_EQ(ol.error().code, pmclog::Errc::bad_abi);
    EXPECT_EQ(ol.error().message, file + ": this is " + f.what + ", not a pmclog log");
    EXPECT_EQ(pmclog::foreign_format(bytes), std::optional<std::string>(f.what));
  }
  // A log's first header word is never taken for a magic, whatever follows it.
  for (const char* stem : {"M10-64-le", "L3-32-be"}) {
    auto bytes = slurp_bytes(fixtures_dir() + "/" + stem + ".pmclog");
    EXPECT_EQ(pmclog::foreign_format(bytes), std::nullopt) << stem;
  }
}

TEST_F(CompressedInput, ForeignFormatInsideACompressionIsNamed) {
  std::vector<uint8_t> tar(2048, 'a');
  const char ustar[] = "ustar";
  std::copy(ustar, ustar + 6, tar.begin() + 257);
  for (const Codec& c : kCodecs) {
    SCOPED_TRACE(c.name);
    const std::string file = path("tarball");
    write(file, compress(c.command, tar));
    auto ol = pmclog::open_log(file);
    ASSERT_FALSE(ol.ok());
    EXPECT_EQ(ol.error().message,
              file + ": this is a tar archive (" + c.name + "-compressed), not a pmclog log");
  }
}

TEST_F(CompressedInput, ZstdWindowAboveTheCapIsRefusedClearly) {
  EXPECT_EQ(pmclog::kZstdWindowLogMax, 27);
  const auto plain = slurp_bytes(fixtures_dir() + "/M10-64-le.pmclog");
  // From standard input the size is unknown, so zstd keeps the 1 GiB window it was told.
  const std::string file = path("long30.zst");
  write(file, compress("zstd -q -c --long=30", plain));
  auto ol = pmclog::open_log(file);
  ASSERT_FALSE(ol.ok());
  EXPECT_EQ(ol.error().code, pmclog::Errc::io);
  EXPECT_EQ(ol.error().message,
            file + ": zstd: the frame needs a 1024 MiB window (windowLog 30), above this "
                   "reader's cap of 128 MiB (windowLog 27) that keeps memory bounded; decompress "
                   "it first with zstd -d --long=30 (at decompressed offset 0)");

  // At the cap it still decodes.
  write(file, compress("zstd -q -c --long=27", plain));
  auto at_cap = pmclog::open_log(file);
  ASSERT_TRUE(at_cap.ok()) << at_cap.error().message;
  pmclog::Error err;
  EXPECT_TRUE(read_all(*at_cap->reader, &err) == plain_records(plain, detected(plain)));
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
}

// Damage at the start of the second of two members: the first member's records all arrive,
// then one error naming the compression and the decompressed offset reached.
TEST_F(CompressedInput, DamageIsNamedAfterEveryRecordBeforeIt) {
  const auto good = big_log(100);
  const auto want = plain_records(good, detected(good));
  struct Damage {
    const char* codec;
    size_t at;     // byte of the second member to change
    uint8_t flip;  // bits to flip in it
    const char* why;
  };
  const Damage damage[] = {
      {"gzip", 2, 0x0F, "corrupt compressed data: unknown compression method"},  // 8 -> 7
      {"zstd", 4, 0x08, "corrupt compressed data: "},  // a reserved frame-header bit
      {"xz", 8, 0xFF, "corrupt compressed data"},       // the stream header's CRC32
      {"bzip2", 4, 0xFF, "corrupt compressed data: a block fails its checks"},  // block magic
  };
  for (const Damage& d : damage) {
    SCOPED_TRACE(d.codec);
    const Codec& c = *std::find_if(std::begin(kCodecs), std::end(kCodecs),
                                   [&](const Codec& k) { return std::string(k.name) == d.codec; });
    auto bytes = compress(c.command, good);
    auto second = compress(c.command, good);
    ASSERT_GT(second.size(), d.at);
    second[d.at] ^= d.flip;
    bytes.insert(bytes.end(), second.begin(), second.end());
    const std::string file = path("damaged");
    write(file, bytes);
    auto ol = pmclog::open_log(file);
    ASSERT_TRUE(ol.ok()) << ol.error().message;
    pmclog::Error err;
    const auto got = read_all(*ol->reader, &err);
    EXPECT_TRUE(got == want) << got.size() << " of " << want.size() << " records";
    EXPECT_EQ(err.code, pmclog::Errc::compressed_damaged);
    EXPECT_EQ(err.offset, good.size());
    const std::string prefix = std::string(d.codec) + ": " + d.why;
    EXPECT_EQ(err.message.rfind(prefix, 0), 0u) << err.message;
    EXPECT_NE(err.message.find("(at decompressed offset " + std::to_string(good.size()) + ")"),
              std::string::npos)
        << err.message;

    // The same damage in the only member: open_log itself fails, at offset 0.
    write(file, second);
    auto bad = pmclog::open_log(file);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, pmclog::Errc::compressed_damaged);
    EXPECT_EQ(bad.error().message.rfind(file + ": " + prefix, 0), 0u) << bad.error().message;
    EXPECT_NE(bad.error().message.find("(at decompressed offset 0)"), std::string::npos)
        << bad.error().message;
  }
}

TEST_F(CompressedInput, TruncationIsNamedAfterEveryRecordBeforeIt) {
  const auto plain = big_log(600);
  const auto want = plain_records(plain, detected(plain));
  for (const Codec& c : kCodecs) {
    SCOPED_TRACE(c.name);
    auto bytes = compress(c.command, plain);
    bytes.resize(bytes.size() * 3 / 4);
    write(path("cut"), bytes);
    auto ol = pmclog::open_log(path("cut"));
    ASSERT_TRUE(ol.ok()) << ol.error().message;
    pmclog::Error err;
    const auto got = read_all(*ol->reader, &err);
    ASSERT_FALSE(got.empty());
    ASSERT_LT(got.size(), want.size());
    EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin()));
    EXPECT_EQ(err.code, pmclog::Errc::compressed_damaged);
    EXPECT_GE(err.offset, got.back().offset + got.back().raw.size());
    EXPECT_EQ(err.message, std::string(c.name) +
                               ": the compressed data ends early (at decompressed offset " +
                               std::to_string(err.offset) + ")");
  }
}

}  // namespace
