// Opening logs the way the tools do (open.h): mapped regular files, gzip and zstd input,
// pipes through the bounded stream, empty and missing files.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "format_rules.h"
#include "listing.h"
#include "pmclog/open.h"
#include "test_util.h"

using namespace codec_test;
namespace fs = std::filesystem;

namespace {

class OpenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pmclog-codec-open-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::vector<Owned> read_reference(const std::string& stem, const Abi& abi) {
  static std::vector<uint8_t> keep;  // records view these bytes until copied
  keep = read_bytes(fixtures_dir() + "/" + stem + ".pmclog");
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
    const std::string cmd = std::string(c.tool) + " -q -c '" + src + "' > '" + out + "' 2>/dev/null";
    if (std::system(cmd.c_str()) != 0) {
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

    const auto head = read_bytes(out);
    EXPECT_EQ(pmclog::sniff_compression(std::span<const uint8_t>(head.data(), 4)), c.c);
  }
  const auto plain = read_bytes(src);
  EXPECT_EQ(pmclog::sniff_compression(plain), pmclog::Compression::none);
}

TEST_F(OpenTest, PipeIsStreamed) {
  const Abi abi = producer_abi(Generation::M9, 4, pmclog::ByteOrder::big);
  const auto bytes = read_bytes(fixtures_dir() + "/M9-32-be.pmclog");
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
  std::ofstream(path).close();
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

}  // namespace
