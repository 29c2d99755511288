// open_input_bytes() and open_log(): the one way tools open an input (standard input, a
// mapped file, a pipe, compressed data). Both start with open_raw(); open_log maps regular
// uncompressed files and otherwise reads the same stream open_input_bytes gives.
#include "pmclog/open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "messages.h"
#include "pmclog/text.h"

namespace pmclog {

namespace {

constexpr size_t kDetectBytes = 1u << 20;  // plenty of records to settle the width

Error io_error(const std::string& shown, const std::string& what) {
  Error e;
  e.code = Errc::io;
  e.message = shown + ": " + what;
  return e;
}

// bad_abi, as for any other bytes that are no log: validate reports it as not-a-log.
Error not_a_log(const std::string& shown, const std::string& what, std::string_view expected) {
  Error e;
  e.code = Errc::bad_abi;
  e.message = shown + ": this is " + what + ", not " + std::string(expected);
  return e;
}

// What sniffing read: the bytes, and how the reading ended if it did.
struct Prefix {
  std::vector<uint8_t> bytes;
  bool ended = false;  // the source said end of data
  Error error;         // a read error after `bytes`
};

// Gives back the bytes read to sniff, then the rest of the source. A read error met while
// sniffing waits behind the prefix, so the bytes before it are still delivered; an end met
// while sniffing is final (a terminal's ^D ends one read, and the next one would block).
class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(Prefix prefix, std::unique_ptr<ByteSource> rest)
      : prefix_(std::move(prefix.bytes)),
        rest_(std::move(rest)),
        ended_(prefix.ended),
        pending_(std::move(prefix.error)) {}
  Result<size_t> read(uint8_t* buf, size_t n) override {
    if (pos_ < prefix_.size()) {
      const size_t k = std::min(n, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    if (pending_) return pending_;
    if (ended_) return size_t{0};
    return rest_->read(buf, n);
  }

 private:
  std::vector<uint8_t> prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> rest_;
  bool ended_;
  Error pending_;
};

// Counts what a source delivers, for open_log's on_read.
class CountingSource final : public ByteSource {
 public:
  CountingSource(std::unique_ptr<ByteSource> src, std::function<void(uint64_t)> f)
      : src_(std::move(src)), f_(std::move(f)) {}
  Result<size_t> read(uint8_t* buf, size_t n) override {
    auto r = src_->read(buf, n);
    if (r.ok() && r.value() > 0) f_(done_ += r.value());
    return r;
  }

 private:
  std::unique_ptr<ByteSource> src_;
  std::function<void(uint64_t)> f_;
  uint64_t done_ = 0;
};

// Closes a descriptor this library opened; standard input is the caller's.
struct FdOwner {
  int fd = -1;
  bool owned = false;
  ~FdOwner() {
    if (owned) ::close(fd);
  }
};

// Up to n bytes from src.
Prefix read_prefix(ByteSource& src, size_t n) {
  Prefix p;
  p.bytes.resize(n);
  size_t got = 0;
  while (got < n) {
    auto r = src.read(p.bytes.data() + got, n - got);
    if (!r.ok()) {
      p.error = r.error();
      break;
    }
    if (r.value() == 0) {
      p.ended = true;
      break;
    }
    got += r.value();
  }
  p.bytes.resize(got);
  return p;
}

// An input opened and sniffed, before it is mapped or streamed.
constexpr std::string_view kPmclogLog = "a pmclog log";

struct RawInput {
  OpenInput in;
  std::string_view expected;  // what the caller reads, for "this is X, not EXPECTED"
  std::shared_ptr<FdOwner> fd;
  bool regular = false;
  uint64_t start = 0;  // where reading begins in a regular file
  Prefix head;  // the first bytes (read from a non-regular input: consumed)
};

Result<RawInput> open_raw(const std::string& name, std::string_view expected) {
  RawInput raw;
  raw.expected = expected;
  raw.in.name = name;
  raw.in.display_name = input_display_name(name);
  const std::string& shown = raw.in.display_name;
  raw.fd = std::make_shared<FdOwner>();
  if (name == "-") {
    raw.fd->fd = 0;
  } else {
    raw.fd->fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (raw.fd->fd < 0) return io_error(shown, std::strerror(errno));
    raw.fd->owned = true;
  }
  const int fd = raw.fd->fd;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return io_error(shown, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return io_error(shown, "is a directory");
  raw.regular = S_ISREG(st.st_mode);

  if (raw.regular) {
    // Standard input redirected from a file may have been read partly already (a script's
    // `{ head -c 100 >/dev/null; pmclog-dump -; } < f`): go on from there, as a pipe
    // would. pread leaves the offset alone, so the stream below starts at `start` too.
    const off_t cur = ::lseek(fd, 0, SEEK_CUR);
    raw.start = cur > 0 ? static_cast<uint64_t>(cur) : 0;
    std::vector<uint8_t>& head = raw.head.bytes;
    head.resize(kSniffBytes);
    size_t got = 0;
    while (got < head.size()) {
      const ssize_t n = ::pread(fd, head.data() + got, head.size() - got,
                                static_cast<off_t>(raw.start + got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return io_error(shown, std::strerror(errno));
      if (n == 0) break;
      got += static_cast<size_t>(n);
    }
    head.resize(got);
  } else {
    auto src = fd_source(fd);
    raw.head = read_prefix(*src, kSniffBytes);
    if (raw.head.error && raw.head.bytes.empty()) return io_error(shown, raw.head.error.message);
  }
  raw.in.compression = sniff_compression(raw.head.bytes);
  if (raw.in.compression == Compression::none)
    if (auto what = foreign_format(raw.head.bytes)) return not_a_log(shown, *what, raw.expected);
  return raw;
}

// Fills raw.in.source with the input's bytes from the start (the sniffed ones given back),
// decompressed; true, or the error that ends the opening.
Result<bool> attach_stream(RawInput& raw) {
  const std::string& shown = raw.in.display_name;
  std::unique_ptr<ByteSource> src = fd_source(raw.fd->fd);
  if (!raw.regular)  // the sniffed bytes were consumed: give them back first
    src = std::make_unique<PrefixedSource>(std::move(raw.head), std::move(src));
  raw.in.keepalive = raw.fd;  // the source reads the descriptor until it is gone
  if (raw.in.compression == Compression::none) {
    raw.in.source = std::move(src);
    return true;
  }
  src = decompressing_source(std::move(src), raw.in.compression);
  // The decompressed start: a .tar.gz is a tar archive first, and a stream damaged at its
  // start (or a zstd window above the cap) is this call's error, not an empty input.
  Prefix first = read_prefix(*src, kSniffBytes);
  if (first.error && first.bytes.empty()) {
    first.error.message = shown + ": " + first.error.message;
    return first.error;
  }
  if (auto what = foreign_format(first.bytes))
    return not_a_log(shown, *what + " (" + compression_name(raw.in.compression) + "-compressed)",
                     raw.expected);
  raw.in.source = std::make_unique<PrefixedSource>(std::move(first), std::move(src));
  return true;
}

Result<Detection> detect(const std::string& shown, std::span<const uint8_t> first,
                         const AbiHint& hint, bool whole, std::vector<ContainerIssue>* issues) {
  if (issues) *issues = parse_container(first, whole).issues;
  auto det = detect_abi(first, hint, whole);
  if (!det.ok()) {
    Error e = det.error();
    e.message = shown + ": " + e.message;
    return e;
  }
  return std::move(det).value();
}

}  // namespace

// Every kernel log starts with INITIALIZE (format.md §2.2): fewer bytes than its header word
// are no log, and an ABI would be invented for them.
std::string empty_log_message(const Container* container, unsigned bytes) {
  const uint64_t at = container != nullptr ? container->size : 0;
  if (bytes != 0) {  // the reader's own words for a cut header, as its records would say
    Error e;
    detail::fail_truncated_header(e, at, bytes);
    return e.message;
  }
  if (container != nullptr)
    return "no INITIALIZE record after the PMCL container: the stream at offset " +
           std::to_string(at) + " is empty";
  return "empty input: no INITIALIZE record at offset 0";
}

std::string empty_log_message(const OpenLog& log) {
  const Detection& d = log.detection;
  return empty_log_message(d.container ? &*d.container : nullptr, d.empty_bytes);
}

std::string input_display_name(const std::string& name) {
  return name == "-" ? "(stdin)" : display_path(name);
}

Result<OpenInput> open_input_bytes(const std::string& name, std::string_view expected) {
  auto raw = open_raw(name, expected);
  if (!raw.ok()) return raw.error();
  auto attached = attach_stream(raw.value());
  if (!attached.ok()) return attached.error();
  return std::move(raw.value().in);
}

Result<OpenLog> open_log(const std::string& name, const AbiHint& hint,
                         std::vector<ContainerIssue>* container_issues,
                         std::function<void(uint64_t delivered)> on_read) {
  auto opened = open_raw(name, kPmclogLog);
  if (!opened.ok()) return opened.error();
  RawInput& raw = opened.value();
  OpenLog log;
  log.name = name;
  log.display_name = raw.in.display_name;
  log.compression = raw.in.compression;
  const std::string& shown = log.display_name;

  if (raw.regular && log.compression == Compression::none) {
    auto mapped = MappedFile::map_fd(raw.fd->fd, "mmap");
    if (!mapped.ok()) return io_error(shown, mapped.error().message);
    auto owner = std::make_shared<MappedFile>(std::move(mapped).value());
    auto bytes = owner->bytes();
    bytes = bytes.subspan(std::min<uint64_t>(raw.start, bytes.size()));
    const bool whole = bytes.size() <= kDetectBytes * 8;
    auto det = detect(shown, bytes.first(std::min(bytes.size(), kDetectBytes * 8)), hint, whole,
                      container_issues);
    if (!det.ok()) return det.error();
    log.detection = std::move(det).value();
    log.reader = std::make_unique<LogReader>(LogReader::over(bytes, log.detection.abi));
    log.reader->discard(log.detection.stream_offset);  // a container: offsets stay file offsets
    log.reader->release_pages_behind(true);  // resident memory stays flat on huge logs
    // Standard input is consumed, as reading a pipe would: a second "-" (or whatever reads
    // the shell's descriptor next) starts after these bytes.
    if (!raw.fd->owned) ::lseek(raw.fd->fd, static_cast<off_t>(raw.start + bytes.size()), SEEK_SET);
    log.mapped = true;
    log.keepalive = owner;  // the mapping outlives the descriptor, which closes here
    return log;
  }

  auto attached = attach_stream(raw);
  if (!attached.ok()) return attached.error();
  if (on_read)
    raw.in.source = std::make_unique<CountingSource>(std::move(raw.in.source), std::move(on_read));
  log.reader = std::make_unique<LogReader>(LogReader::stream(std::move(raw.in.source), Abi{}));
  const auto first = log.reader->peek(kDetectBytes);
  auto det = detect(shown, first, hint, first.size() < kDetectBytes, container_issues);
  if (!det.ok()) return det.error();
  log.detection = std::move(det).value();
  log.reader->set_abi(log.detection.abi);
  log.reader->discard(log.detection.stream_offset);
  log.keepalive = std::move(raw.in.keepalive);
  return log;
}

}  // namespace pmclog
