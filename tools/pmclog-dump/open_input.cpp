#include "open_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

namespace dump {

namespace {

constexpr size_t kDetectBytes = 8u << 20;  // what the library examines in a mapped file

pmclog::Error io_error(const std::string& name, const std::string& what) {
  pmclog::Error e;
  e.code = pmclog::Errc::io;
  e.message = name + ": " + what;
  return e;
}

// The library's open_log("-") fails when standard input is a regular file (it then opens a
// file named "-"); /dev/stdin names the same open file.
std::string library_name(const std::string& name) {
  struct stat st;
  if (name == "-" && ::fstat(0, &st) == 0 && S_ISREG(st.st_mode)) return "/dev/stdin";
  return name;
}

pmclog::Result<Input> via_library(const std::string& name, const pmclog::AbiHint& hint) {
  const std::string given = library_name(name);
  auto opened = pmclog::open_log(given, hint);
  if (!opened) {
    pmclog::Error e = opened.error();
    if (e.message.rfind(given + ": ", 0) == 0) e.message = name + e.message.substr(given.size());
    else e.message = name + ": " + e.message;
    return e;
  }
  Input in;
  in.name = name;
  in.log = std::move(opened.value());
  in.compression = in.log.compression;
  in.detection = in.log.detection;
  return in;
}

}  // namespace

Input::Input(Input&& o) noexcept
    : name(std::move(o.name)),
      compression(o.compression),
      detection(std::move(o.detection)),
      reader(std::move(o.reader)),
      log(std::move(o.log)),
      fd(std::exchange(o.fd, -1)) {}

Input::~Input() {
  reader.reset();  // before the descriptor it reads
  if (fd >= 0) ::close(fd);
}

pmclog::Result<Input> open_input(const std::string& name, const pmclog::AbiHint& hint) {
  if (name == "-") return via_library(name, hint);
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(name, std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return via_library(name, hint);  // directories, fifos, devices: the library's answer
  }
  // The first bytes, without moving the descriptor: compression magic and detection.
  std::vector<uint8_t> head(std::min<uint64_t>(kDetectBytes, static_cast<uint64_t>(st.st_size)));
  size_t got = 0;
  while (got < head.size()) {
    const ssize_t n = ::pread(fd, head.data() + got, head.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return io_error(name, std::strerror(err));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  head.resize(got);
  if (pmclog::sniff_compression(head) != pmclog::Compression::none ||
      pmclog::foreign_format(head)) {
    ::close(fd);
    return via_library(name, hint);  // decompressed streams are bounded; foreign input named
  }
  auto det = pmclog::detect_abi(head, hint);
  if (!det.ok()) {
    ::close(fd);
    pmclog::Error e = det.error();
    e.message = name + ": " + e.message;
    return e;
  }
  Input in;
  in.name = name;
  in.fd = fd;
  in.detection = std::move(det.value());
  in.reader = std::make_unique<pmclog::LogReader>(
      pmclog::LogReader::stream(pmclog::fd_source(fd), in.detection.abi));
  return in;
}

}  // namespace dump
