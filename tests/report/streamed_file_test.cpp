// StreamedFile hands over a file's text while it is still being read, in memory that does
// not move, and says when the reading ended and why.
#include "streamed_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>

#include "support/files.h"
#include "support/scratch.h"

namespace {

std::string lines(size_t n, char tag) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += std::string(39, tag) + '\n';
  return s;
}

bool write_all(int fd, const std::string& s) {
  for (size_t at = 0; at < s.size();) {
    const ssize_t n = ::write(fd, s.data() + at, s.size() - at);
    if (n <= 0) return false;
    at += static_cast<size_t>(n);
  }
  return true;
}

// Through a FIFO the test decides when more text comes: the first part is handed over before
// the writer has finished, and the rest follows in the same place.
TEST(StreamedFile, TextComesWhileTheWriterStillWrites) {
  pmclog_test::ScratchDir dir;
  const std::string path = dir.file("fifo");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const int w = ::open(path.c_str(), O_RDWR | O_CLOEXEC);  // the reader's open does not block
  ASSERT_GE(w, 0);
  auto f = pmcprofile::StreamedFile::start(path, size_t{16} << 20);
  ASSERT_NE(f, nullptr);
  const std::string first = lines(10'000, 'a');  // 400 KB: past the reader's wake-up step
  const std::string rest = lines(5'000, 'b');
  ASSERT_TRUE(write_all(w, first));
  // On a thread, so that a reader that hands nothing over before the end fails the test
  // instead of waiting for a writer that waits for it.
  auto waited = std::async(std::launch::async, [&] { return f->wait_past(0); });
  const bool came = waited.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  EXPECT_TRUE(came) << "nothing was handed over while the writer was still writing";
  if (!came) ::close(w);
  const pmcprofile::StreamedFile::Progress early = waited.get();
  if (!came) return;
  EXPECT_FALSE(early.ended) << "the writer has not finished";
  ASSERT_GT(early.text.size(), 0u);
  EXPECT_LE(early.text.size(), first.size());
  EXPECT_EQ(early.text, std::string_view(first).substr(0, early.text.size()));
  ASSERT_TRUE(write_all(w, rest));
  ::close(w);
  pmcprofile::StreamedFile::Progress p = early;
  while (!p.ended) p = f->wait_past(p.text.size());
  EXPECT_FALSE(p.overflow);
  EXPECT_EQ(p.text, first + rest);
  EXPECT_EQ(p.text.data(), early.text.data()) << "the text moved";
}

TEST(StreamedFile, AFileLargerThanItsReservationSaysSo) {
  pmclog_test::ScratchDir dir;
  const std::string path = dir.file("big");
  pmclog_test::write_file(path, lines(200, 'c'));  // 8,000 bytes
  auto f = pmcprofile::StreamedFile::start(path, 4096);
  ASSERT_NE(f, nullptr);
  pmcprofile::StreamedFile::Progress p = f->wait_past(0);
  while (!p.ended) p = f->wait_past(p.text.size());
  EXPECT_TRUE(p.overflow);
  EXPECT_EQ(p.text.size(), 4096u);

  pmclog_test::write_file(path, lines(100, 'd'));  // 4,000 bytes: fits
  f = pmcprofile::StreamedFile::start(path, 4096);
  ASSERT_NE(f, nullptr);
  p = f->wait_past(0);
  while (!p.ended) p = f->wait_past(p.text.size());
  EXPECT_FALSE(p.overflow);
  EXPECT_EQ(p.text, lines(100, 'd'));
}

TEST(StreamedFile, EmptyAndMissingFiles) {
  pmclog_test::ScratchDir dir;
  EXPECT_EQ(pmcprofile::StreamedFile::start(dir.file("none"), 4096), nullptr);
  const std::string path = dir.file("empty");
  pmclog_test::write_file(path, "");
  auto f = pmcprofile::StreamedFile::start(path, 4096);
  ASSERT_NE(f, nullptr);
  const pmcprofile::StreamedFile::Progress p = f->wait_past(0);
  EXPECT_TRUE(p.ended);
  EXPECT_FALSE(p.overflow);
  EXPECT_TRUE(p.text.empty());
}

}  // namespace
