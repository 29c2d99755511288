#include "log_sink.h"

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
  buf_.reserve(1 << 20);
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
  if (buf_.size() >= (1u << 20) - 65536) flush();
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
  if (e) err = e.message;
  return !e;
}

}  // namespace record
