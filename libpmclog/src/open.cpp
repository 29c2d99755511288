// open_log(): the common way tools open a log (mapped file, pipe, compressed), then detect.
#include "pmclog/open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pmclog {

namespace {

constexpr size_t kDetectBytes = 1u << 20;  // plenty of records to settle the width

Error io_error(const std::string& name, const std::string& what) {
  Error e;
  e.code = Errc::io;
  e.message = name + ": " + what;
  return e;
}

// bad_abi, as for any other bytes that are no log: validate reports it as not-a-log.
Error not_a_log(const std::string& name, const std::string& what) {
  Error e;
  e.code = Errc::bad_abi;
  e.message = name + ": this is " + what + ", not a pmclog log";
  return e;
}

// Gives back the bytes read to sniff the compression, then the rest of the source.
class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::vector<uint8_t> prefix, std::unique_ptr<ByteSource> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}
  Result<size_t> read(uint8_t* buf, size_t n) override {
    if (pos_ < prefix_.size()) {
      const size_t k = std::min(n, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return rest_->read(buf, n);
  }

 private:
  std::vector<uint8_t> prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

struct FdCloser {
  int fd = -1;
  ~FdCloser() {
    if (fd > 0) ::close(fd);
  }
};

}  // namespace

Result<OpenLog> open_log(const std::string& name, const AbiHint& hint) {
  OpenLog log;
  log.name = name;
  int fd = 0;
  if (name != "-") {
    fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error(name, std::strerror(errno));
  }
  auto closer = std::make_shared<FdCloser>();
  closer->fd = fd;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return io_error(name, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return io_error(name, "is a directory");

  // Sniff the first bytes for a compression's or an archive's magic.
  std::vector<uint8_t> head(kSniffBytes);
  size_t got = 0;
  auto raw = fd_source(fd);
  while (got < head.size()) {
    auto r = raw->read(head.data() + got, head.size() - got);
    if (!r.ok()) return io_error(name, r.error().message);
    if (r.value() == 0) break;
    got += r.value();
  }
  head.resize(got);
  log.compression = sniff_compression(head);
  if (log.compression == Compression::none)
    if (auto what = foreign_format(head)) return not_a_log(name, *what);

  if (S_ISREG(st.st_mode) && log.compression == Compression::none) {
    auto mapped = MappedFile::map_fd(fd, name);  // also for "-" redirected from a file
    if (!mapped.ok()) return io_error(name, mapped.error().message);
    auto owner = std::make_shared<MappedFile>(std::move(mapped).value());
    const auto bytes = owner->bytes();
    auto det = detect_abi(bytes.first(std::min(bytes.size(), kDetectBytes * 8)), hint);
    if (!det.ok()) {
      Error e = det.error();
      e.message = name + ": " + e.message;
      return e;
    }
    log.detection = std::move(det).value();
    log.reader = std::make_unique<LogReader>(LogReader::over(bytes, log.detection.abi));
    log.reader->release_pages_behind(true);  // resident memory stays flat on huge logs
    log.mapped = true;
    log.keepalive = owner;
    return log;
  }

  std::unique_ptr<ByteSource> src = std::make_unique<PrefixedSource>(std::move(head), std::move(raw));
  if (log.compression != Compression::none)
    src = decompressing_source(std::move(src), log.compression);
  log.reader = std::make_unique<LogReader>(LogReader::stream(std::move(src), Abi{}));
  const auto first = log.reader->peek(kDetectBytes);
  if (log.compression != Compression::none)  // a .tar.gz is a tar archive first
    if (auto what = foreign_format(first))
      return not_a_log(name, *what + " (" + compression_name(log.compression) + "-compressed)");
  if (first.empty()) {
    // Nothing decoded: a stream damaged at its start (or a zstd window above the cap) is
    // this call's error, not an empty log with an assumed ABI.
    Record r;
    Error e;
    if (log.reader->next(r, e) == Step::error) {
      e.message = name + ": " + e.message;
      return e;
    }
  }
  auto det = detect_abi(first, hint);
  if (!det.ok()) {
    Error e = det.error();
    e.message = name + ": " + e.message;
    return e;
  }
  log.detection = std::move(det).value();
  log.reader->set_abi(log.detection.abi);
  log.keepalive = closer;  // the stream reads fd until the reader is gone
  return log;
}

}  // namespace pmclog
