#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace pmclog::write {

namespace {
std::string human_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return fmt::format("{:.1f} {}", b, units[u]);
}
}  // namespace

Progress::Progress(bool enabled, uint64_t total_bytes, uint64_t total_records)
    : enabled_(enabled), total_bytes_(total_bytes), total_records_(total_records),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

bool Progress::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

void Progress::update(uint64_t bytes, uint64_t records) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  draw(bytes, records, false);
}

void Progress::finish(uint64_t bytes, uint64_t records) {
  if (!enabled_) return;
  draw(bytes, records, true);
  std::fputc('\n', stderr);
}

void Progress::draw(uint64_t bytes, uint64_t records, bool final) {
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = secs > 0 ? static_cast<double>(bytes) / secs : 0;
  double frac = -1;
  if (total_bytes_) frac = static_cast<double>(bytes) / static_cast<double>(total_bytes_);
  else if (total_records_) frac = static_cast<double>(records) / static_cast<double>(total_records_);
  if (final && frac >= 0) frac = 1;
  std::string line = "\r";
  if (frac >= 0) {
    frac = std::clamp(frac, 0.0, 1.0);
    const size_t width = 30, fill = static_cast<size_t>(frac * width);
    line.push_back('[');
    line.append(fill, '#');
    line.append(width - fill, '.');
    line.append(fmt::format("] {:3.0f}% ", frac * 100));
  }
  line.append(fmt::format("{}  {} records  {}/s \x1b[K", human_bytes(static_cast<double>(bytes)),
                          records, human_bytes(rate)));  // ESC[K clears the rest of the line
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace pmclog::write
