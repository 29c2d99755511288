#include "log_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "pmclog/encode.h"

namespace record {

namespace {
uint64_t clock_ns(clockid_t c) {
  timespec ts;
  clock_gettime(c, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}
}  // namespace

uint64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }

LogSink::LogSink(const pmclog::Abi& abi, std::string final_path)
    : abi_(abi), final_path_(std::move(final_path)) {
  rt_offset_ = static_cast<int64_t>(clock_ns(CLOCK_REALTIME)) -
               static_cast<int64_t>(clock_ns(CLOCK_MONOTONIC));
}

LogSink::~LogSink() {
  if (fd_ >= 0) close(fd_);
  if (!committed_ && !temp_path_.empty()) unlink(temp_path_.c_str());
}

bool LogSink::open(std::string& err) {
  temp_path_ = final_path_ + ".tmp." + std::to_string(getpid());
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    err = "cannot create '" + temp_path_ + "': " + std::strerror(errno);
    temp_path_.clear();
    return false;
  }
  buf_.reserve(1 << 20);
  return true;
}

void LogSink::emit(pmclog::RecordValue& r, uint64_t mono_ns) {
  if (abi_.legacy()) {
    const int64_t rt = static_cast<int64_t>(mono_ns) + rt_offset_;
    auto [sec, nsec] = pmclog::legacy_timestamp(static_cast<uint64_t>(rt) / 1000000000ull,
                                                static_cast<uint64_t>(rt) % 1000000000ull);
    r.ts_sec = sec;
    r.ts_nsec = nsec;
  } else {
    r.tsc = mono_ns;
  }
  auto n = pmclog::encode(r, abi_, buf_);
  if (!n) {
    if (encode_failures_++ == 0)
      std::fprintf(stderr, "pmclog-record: warning: a %s record was not written: %s\n",
                   std::string(pmclog::kind_name(r.kind)).c_str(), n.error().message.c_str());
    return;
  }
  ++records_;
  bytes_ += *n;
  if (buf_.size() >= (1u << 20) - 65536) {
    std::string e;
    flush(e);
  }
}

bool LogSink::flush(std::string& err) {
  size_t off = 0;
  while (off < buf_.size() && !write_failed_) {
    ssize_t w = write(fd_, buf_.data() + off, buf_.size() - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      write_failed_ = true;
      write_error_ = "cannot write '" + temp_path_ + "': " + std::strerror(errno);
      break;
    }
    off += static_cast<size_t>(w);
  }
  buf_.clear();
  if (write_failed_) err = write_error_;
  return !write_failed_;
}

bool LogSink::commit(std::string& err) {
  if (!flush(err)) return false;
  if (fsync(fd_) != 0 && errno != EINVAL) {
    err = "cannot sync '" + temp_path_ + "': " + std::strerror(errno);
    return false;
  }
  close(fd_);
  fd_ = -1;
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    err = "cannot rename '" + temp_path_ + "' to '" + final_path_ + "': " + std::strerror(errno);
    return false;
  }
  committed_ = true;
  return true;
}

}  // namespace record
