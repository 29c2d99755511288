#include "log_sink.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctime>

#include "diagnostics.h"
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

bool LogSink::open(std::string& err) {
  if (const pmclog::tools::OutputError e = out_.open(final_path_)) {
    err = e.message;
    return false;
  }
  // A pipe's reader may stop at any time (head -c): written in small pieces, the log meets
  // the closed pipe while it is recorded, so the summary never claims bytes nobody read.
  struct stat st;
  const bool stream = final_path_ == "-" ? fstat(STDOUT_FILENO, &st) == 0 && !S_ISREG(st.st_mode)
                                         : stat(final_path_.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
  flush_at_ = stream ? 16u << 10 : (1u << 20) - 65536;
  buf_.reserve(flush_at_ + 65536);
  return true;
}

void LogSink::emit_raw(const std::vector<uint8_t>& bytes) {
  buf_.insert(buf_.end(), bytes.begin(), bytes.end());
  bytes_ += bytes.size();
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
      pmclog::tools::diag().warning("a " + std::string(pmclog::kind_name(r.kind)) +
                                    " record was not written: " + n.error().message);
    return;
  }
  ++records_;
  bytes_ += *n;
  if (buf_.size() >= flush_at_) flush();
}

// The first write error sticks in the output; commit() reports it.
void LogSink::flush() {
  if (!buf_.empty() && out_.write(buf_.data(), buf_.size()).kind ==
                           pmclog::tools::OutputError::Kind::closed_pipe)
    closed_ = true;
  buf_.clear();
}

bool LogSink::commit(std::string& err) {
  flush();
  const pmclog::tools::OutputError e = out_.commit();
  if (e.kind == pmclog::tools::OutputError::Kind::closed_pipe) {
    closed_ = true;
    return true;
  }
  // The pipe took the last bytes, but its reader is already gone (POLLERR on the write end):
  // what it did not read is lost.
  if (!e && final_path_ == "-") {
    pollfd p{STDOUT_FILENO, POLLOUT, 0};
    if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) closed_ = true;
  }
  if (e) err = e.message;
  return !e;
}

}  // namespace record
