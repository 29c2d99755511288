#include "progress.h"

#include <unistd.h>

#include <cstdlib>

#include "diagnostics.h"
#include "pmclog/text.h"

namespace pmclog::tools {

namespace {

std::chrono::milliseconds delay_from_env() {
  for (const char* name : {"PMCLOG_PROGRESS_AFTER_MS", "PMCLOG_REPORT_PROGRESS_AFTER_MS"}) {
    if (const char* e = std::getenv(name)) {
      char* end = nullptr;
      const long v = std::strtol(e, &end, 10);
      if (end != e && *end == '\0' && v >= 0) return std::chrono::milliseconds(v);
    }
  }
  return std::chrono::seconds(1);
}

}  // namespace

Progress::Progress(bool wanted)
    : on_(wanted && isatty(STDERR_FILENO) == 1),
      delay_(delay_from_env()),
      start_(std::chrono::steady_clock::now()) {}

void Progress::set_label(std::string_view label) { label_ = terminal_safe(label); }

void Progress::update(uint64_t done, uint64_t total, std::string_view unit) {
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < delay_) return;
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  std::string s = "\r";
  s += diag().tool();
  s += ": ";
  s += label_;
  if (total != 0) {
    const auto pct = static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total));
    s += ' ' + std::to_string(pct > 100 ? 100 : pct) + '%';
  } else if (unit == "bytes") {
    s += ' ' + std::to_string(done >> 20) + " MB";
  } else {
    s += ' ' + std::to_string(done) + ' ' + std::string(unit);
  }
  s += "\033[K";
  diag().raw(s);
  shown_ = true;
}

void Progress::clear() {
  if (shown_) diag().raw("\r\033[K");
  shown_ = false;
}

}  // namespace pmclog::tools
