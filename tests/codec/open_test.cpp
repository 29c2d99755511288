// Opening logs the way the tools do (open.h): mapped regular files, gzip and zstd input,
// pipes through the bounded stream, empty and missing files; standard input as a pipe, a
// regular file (also read partly already), /dev/null and a directory; open_input_bytes.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>

#include "format_rules.h"
#include "listing.h"
#include "pmclog/open.h"
#include "pmclog/text.h"
#include "test_util.h"

using namespace codec_test;
namespace fs = std::filesystem;

namespace {

class OpenTest : public ::testing::Test {
 protected:
  ScratchDir scratch_;
  const fs::path dir_ = scratch_.path();
};

std::vector<Owned> read_reference(const std::string& stem, const Abi& abi) {
  static std::vector<uint8_t> keep;  // records view these bytes until copied
  keep = slurp_bytes(fixtures_dir() + "/" + stem + ".pmclog");
  auto rd = pmclog::LogReader::over(keep, abi);
  return read_all(rd);
}

TEST_F(OpenTest, RegularFileIsMappedAndDetected) {
  const Abi abi = producer_abi(Generation::L3, 8, pmclog::ByteOrder::big);
  const std::string path = fixtures_dir() + "/L3-64-be.pmclog";
  auto ol = pmclog::open_log(path);
  ASSERT_TRUE(ol.ok()) << ol.error().message;
  EXPECT_TRUE(ol->mapped);
  EXPECT_EQ(ol->compression, pmclog::Compression::none);
  EXPECT_EQ(ol->detection.abi.generation, Generation::L3);
  EXPECT_EQ(ol->detection.abi.byte_order, pmclog::ByteOrder::big);
  const auto got = read_all(*ol->reader);
  EXPECT_TRUE(got == read_reference("L3-64-be", abi));

  auto mf = pmclog::MappedFile::open(path);
  ASSERT_TRUE(mf.ok());
  EXPECT_EQ(mf->bytes().size(), fs::file_size(path));
}

TEST_F(OpenTest, GzipAndZstdInput) {
  const std::string src = fixtures_dir() + "/M10-64-le.pmclog";
  const auto want = read_reference("M10-64-le", producer_abi(Generation::M10, 8, pmclog::ByteOrder::little));
  struct C { const char* tool; const char* ext; pmclog::Compression c; };
  for (const C& c : {C{"gzip", ".gz", pmclog::Compression::gzip}, C{"zstd", ".zst", pmclog::Compression::zstd}}) {
    const std::string out = (dir_ / (std::string("log") + c.ext)).string();
    pmclog_test::RunOptions to_out;
    to_out.stdout_path = out;
    if (pmclog_test::run({c.tool, "-q", "-c", src}, to_out).status != 0) {
      ADD_FAILURE() << c.tool << " is not installed (scripts/setup.sh should install it)";
      continue;
    }
    auto ol = pmclog::open_log(out);
    ASSERT_TRUE(ol.ok()) << ol.error().message;
    EXPECT_EQ(ol->compression, c.c);
    EXPECT_FALSE(ol->mapped);
    EXPECT_EQ(ol->detection.abi.generation, Generation::M10);
    pmclog::Error err;
    const auto got = read_all(*ol->reader, &err);
    EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
    EXPECT_TRUE(got == want) << c.tool;

    const auto head = slurp_bytes(out);
    EXPECT_EQ(pmclog::sniff_compression(std::span<const uint8_t>(head.data(), 4)), c.c);
  }
  const auto plain = slurp_bytes(src);
  EXPECT_EQ(pmclog::sniff_compression(plain), pmclog::Compression::none);
}

TEST_F(OpenTest, PipeIsStreamed) {
  const Abi abi = producer_abi(Generation::M9, 4, pmclog::ByteOrder::big);
  const auto bytes = slurp_bytes(fixtures_dir() + "/M9-32-be.pmclog");
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    // Dribble the bytes in odd-sized pieces so that records straddle reads.
    for (size_t off = 0; off < bytes.size();) {
      const size_t n = std::min<size_t>(13, bytes.size() - off);
      if (::write(fds[1], bytes.data() + off, n) != static_cast<ssize_t>(n)) break;
      off += n;
    }
    ::close(fds[1]);
  });
  auto rd = pmclog::LogReader::stream(pmclog::fd_source(fds[0]), abi);
  pmclog::Error err;
  const auto got = read_all(rd, &err);
  writer.join();
  ::close(fds[0]);
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
  EXPECT_TRUE(got == read_reference("M9-32-be", abi));
}

TEST_F(OpenTest, EmptyFileOpensWithAssumedAbi) {
  const std::string path = (dir_ / "empty.pmclog").string();
  write_file(path, "");
  auto ol = pmclog::open_log(path);
  ASSERT_TRUE(ol.ok()) << ol.error().message;
  EXPECT_TRUE(ol->detection.width_assumed || ol->detection.generation_assumed);
  pmclog::Record r;
  pmclog::Error e;
  EXPECT_EQ(ol->reader->next(r, e), pmclog::Step::end);
}

TEST_F(OpenTest, MissingFileIsAnIoError) {
  auto ol = pmclog::open_log((dir_ / "no-such.pmclog").string());
  ASSERT_FALSE(ol.ok());
  EXPECT_EQ(ol.error().code, pmclog::Errc::io);
  EXPECT_NE(ol.error().message.find("no-such.pmclog"), std::string::npos) << ol.error().message;
}

// Makes fd this process's standard input for the scope, then puts the old one back.
class StdinFrom {
 public:
  explicit StdinFrom(int fd) : saved_(::dup(0)) {
    ::dup2(fd, 0);
    ::close(fd);
  }
  ~StdinFrom() {
    ::dup2(saved_, 0);
    ::close(saved_);
  }
  StdinFrom(const StdinFrom&) = delete;
  StdinFrom& operator=(const StdinFrom&) = delete;

 private:
  int saved_;
};

std::vector<uint8_t> drain(pmclog::ByteSource& src, pmclog::Error* err = nullptr) {
  std::vector<uint8_t> out;
  uint8_t buf[1000];  // not a divisor of the sniff size: pieces straddle the prefix's end
  for (;;) {
    auto r = src.read(buf, sizeof buf);
    if (!r.ok()) {
      if (err) *err = r.error();
      break;
    }
    if (r.value() == 0) break;
    out.insert(out.end(), buf, buf + r.value());
  }
  return out;
}

constexpr const char* kStdinFixture = "L3-64-be";
const Abi& stdin_abi() {
  static const Abi abi = producer_abi(Generation::L3, 8, pmclog::ByteOrder::big);
  return abi;
}

// A regular file on standard input is mapped by the library itself, by its descriptor (the
// tools do not rename "-" to /dev/stdin).
TEST_F(OpenTest, StdinRegularFileIsMapped) {
  const std::string path = fixtures_dir() + "/" + kStdinFixture + ".pmclog";
  StdinFrom in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  auto ol = pmclog::open_log("-");
  ASSERT_TRUE(ol.ok()) << ol.error().message;
  EXPECT_TRUE(ol->mapped);
  EXPECT_EQ(ol->name, "-");
  EXPECT_EQ(ol->display_name, "(stdin)");
  EXPECT_TRUE(read_all(*ol->reader) == read_reference(kStdinFixture, stdin_abi()));
}

// A script may have read part of standard input before (`{ read hdr; pmclog-dump -; } < f`):
// reading goes on from the descriptor's offset, with offsets counted from there, as when the
// rest comes through a pipe.
TEST_F(OpenTest, StdinRegularFileIsReadFromItsOffset) {
  const auto log = slurp_bytes(fixtures_dir() + "/" + kStdinFixture + ".pmclog");
  std::vector<uint8_t> bytes(24 + log.size(), 'x');  // 24 bytes read before: not ours
  std::copy(log.begin(), log.end(), bytes.begin() + 24);
  const std::string path = (dir_ / "prefixed.pmclog").string();
  write_file(path, bytes);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(::lseek(fd, 24, SEEK_SET), 24);
  StdinFrom in(fd);
  auto ol = pmclog::open_log("-");
  ASSERT_TRUE(ol.ok()) << ol.error().message;
  EXPECT_TRUE(ol->mapped);
  EXPECT_EQ(ol->detection.abi.byte_order, pmclog::ByteOrder::big);
  EXPECT_TRUE(read_all(*ol->reader) == read_reference(kStdinFixture, stdin_abi()));

  ASSERT_EQ(::lseek(0, 24, SEEK_SET), 24);  // the byte-level opener: the same bytes
  auto bi = pmclog::open_input_bytes("-");
  ASSERT_TRUE(bi.ok()) << bi.error().message;
  EXPECT_TRUE(drain(*bi->source) == log);
}

TEST_F(OpenTest, StdinPipeIsStreamed) {
  PipeFeed feed(slurp_bytes(fixtures_dir() + "/" + kStdinFixture + ".pmclog"));
  StdinFrom in(feed.read_end());
  auto ol = pmclog::open_log("-");
  ASSERT_TRUE(ol.ok()) << ol.error().message;
  EXPECT_FALSE(ol->mapped);
  pmclog::Error err;
  EXPECT_TRUE(read_all(*ol->reader, &err) == read_reference(kStdinFixture, stdin_abi()));
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
}

TEST_F(OpenTest, StdinCompressedPipeIsDecompressed) {
  const std::string plain = fixtures_dir() + "/" + kStdinFixture + ".pmclog";
  const std::string gz = (dir_ / "log.gz").string();
  pmclog_test::RunOptions to_gz;
  to_gz.stdout_path = gz;
  ASSERT_EQ(pmclog_test::run({"gzip", "-c", plain}, to_gz).status, 0);
  PipeFeed feed(slurp_bytes(gz));
  StdinFrom in(feed.read_end());
  auto ol = pmclog::open_log("-");
  ASSERT_TRUE(ol.ok()) << ol.error().message;
  EXPECT_EQ(ol->compression, pmclog::Compression::gzip);
  pmclog::Error err;
  EXPECT_TRUE(read_all(*ol->reader, &err) == read_reference(kStdinFixture, stdin_abi()));
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
}

TEST_F(OpenTest, StdinDevNullIsAnEmptyInput) {
  {
    StdinFrom in(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    auto ol = pmclog::open_log("-");
    ASSERT_TRUE(ol.ok()) << ol.error().message;
    EXPECT_TRUE(ol->detection.empty);  // the tools report "empty input" from this
    pmclog::Record r;
    pmclog::Error e;
    EXPECT_EQ(ol->reader->next(r, e), pmclog::Step::end);
    EXPECT_EQ(ol->reader->offset(), 0u);
  }
  StdinFrom in(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  auto bi = pmclog::open_input_bytes("-");
  ASSERT_TRUE(bi.ok()) << bi.error().message;
  EXPECT_TRUE(drain(*bi->source).empty());
}

// A terminal is read like a pipe, until its end of file (^D at the start of a line).
TEST_F(OpenTest, StdinTerminalIsStreamed) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const int slave = ::open(::ptsname(master), O_RDONLY | O_NOCTTY | O_CLOEXEC);
  ASSERT_GE(slave, 0);
  ASSERT_TRUE(::isatty(slave));
  ASSERT_EQ(::write(master, "\x04", 1), 1);  // VEOF in canonical mode: read() returns 0
  {
    StdinFrom in(slave);
    auto ol = pmclog::open_log("-");
    ASSERT_TRUE(ol.ok()) << ol.error().message;
    EXPECT_FALSE(ol->mapped);
    EXPECT_TRUE(ol->detection.empty);
  }
  ::close(master);
}

TEST_F(OpenTest, StdinIsCalledStdinInMessages) {
  {
    StdinFrom in(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    for (const bool bytes : {false, true}) {
      const pmclog::Error e = bytes ? pmclog::open_input_bytes("-").error()
                                    : pmclog::open_log("-").error();
      EXPECT_EQ(e.code, pmclog::Errc::io);
      EXPECT_EQ(e.message, "(stdin): is a directory");
    }
  }
  const std::string zip = (dir_ / "a.zip").string();
  write_file(zip, {'P', 'K', 3, 4, 20, 0, 0, 0});
  StdinFrom in(::open(zip.c_str(), O_RDONLY | O_CLOEXEC));
  auto ol = pmclog::open_log("-");
  ASSERT_FALSE(ol.ok());
  EXPECT_EQ(ol.error().code, pmclog::Errc::bad_abi);
  EXPECT_EQ(ol.error().message.rfind("(stdin): this is a zip archive", 0), 0u) << ol.error().message;
}

// Names are untrusted: messages carry them escaped, the structs keep them as given.
TEST_F(OpenTest, NamesInMessagesAreEscaped) {
  const std::string raw = (dir_ / "d\x1b[2Jx").string();
  fs::create_directories(raw);
  for (const bool bytes : {false, true}) {
    const pmclog::Error e = bytes ? pmclog::open_input_bytes(raw).error() : pmclog::open_log(raw).error();
    EXPECT_EQ(e.message.find('\x1b'), std::string::npos) << e.message;
    EXPECT_EQ(e.message, pmclog::display_path(raw) + ": is a directory");
  }
  EXPECT_EQ(pmclog::input_display_name(raw), pmclog::display_path(raw));
  EXPECT_EQ(pmclog::input_display_name("-"), "(stdin)");
}

// open_input_bytes gives the decompressed bytes for every compression the library reads.
TEST_F(OpenTest, InputBytesAreDecompressed) {
  std::vector<uint8_t> text;
  for (int i = 0; i < 3000; ++i) {  // several sniff and read sizes long
    const std::string line = "{\"type\":\"userdata\",\"userdata\":" + std::to_string(i) + "}\n";
    text.insert(text.end(), line.begin(), line.end());
  }
  const std::string plain = (dir_ / "in.jsonl").string();
  write_file(plain, text);
  {
    auto bi = pmclog::open_input_bytes(plain);
    ASSERT_TRUE(bi.ok()) << bi.error().message;
    EXPECT_EQ(bi->compression, pmclog::Compression::none);
    EXPECT_EQ(bi->name, plain);
    EXPECT_TRUE(drain(*bi->source) == text);
  }
  struct C { const char* tool; pmclog::Compression c; };
  for (const C& c : {C{"gzip", pmclog::Compression::gzip}, C{"zstd -q", pmclog::Compression::zstd},
                     C{"xz", pmclog::Compression::xz}, C{"bzip2", pmclog::Compression::bzip2}}) {
    SCOPED_TRACE(c.tool);
    const std::string packed = (dir_ / "in.packed").string();
    pmclog_test::RunOptions pack;
    pack.stdin_path = plain;
    pack.stdout_path = packed;
    ASSERT_EQ(pmclog_test::run(pmclog_test::concat({pmclog_test::words(c.tool), {"-c"}}), pack).status, 0)
        << c.tool << " is not installed";
    for (const bool via_stdin : {false, true}) {
      std::optional<StdinFrom> in;
      if (via_stdin) in.emplace(::open(packed.c_str(), O_RDONLY | O_CLOEXEC));
      auto bi = pmclog::open_input_bytes(via_stdin ? "-" : packed);
      ASSERT_TRUE(bi.ok()) << bi.error().message;
      EXPECT_EQ(bi->compression, c.c);
      pmclog::Error err;
      EXPECT_TRUE(drain(*bi->source, &err) == text);
      EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
    }
  }
}

TEST_F(OpenTest, InputBytesRefuseForeignFormats) {
  const std::string zip = (dir_ / "in.zip").string();
  write_file(zip, {'P', 'K', 3, 4, 20, 0, 0, 0});
  auto bi = pmclog::open_input_bytes(zip);
  ASSERT_FALSE(bi.ok());
  EXPECT_EQ(bi.error().code, pmclog::Errc::bad_abi);
  EXPECT_EQ(bi.error().message.rfind(zip + ": this is a zip archive", 0), 0u) << bi.error().message;

  // A tar archive inside gzip is named as such, after decompression.
  const std::string member = (dir_ / "member.jsonl").string();
  write_file(member, {'{', '}', '\n'});
  const std::string tgz = (dir_ / "in.tar.gz").string();
  ASSERT_EQ(pmclog_test::run({"tar", "-czf", tgz, "-C", dir_, "member.jsonl"}).status, 0);
  auto t = pmclog::open_input_bytes(tgz);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("a tar archive (gzip-compressed)"), std::string::npos)
      << t.error().message;

  auto missing = pmclog::open_input_bytes((dir_ / "no-such.jsonl").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, pmclog::Errc::io);
}

}  // namespace
