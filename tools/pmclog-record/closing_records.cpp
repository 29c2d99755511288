#include "closing_records.h"

#include <unistd.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "diagnostics.h"
#include "sampling_loop.h"

namespace record {

using pmclog::tools::diag;

namespace {

// One read of a counting group: its times and each member's (value, id).
bool read_group(int fd, PerfEvent& e) {
  uint64_t buf[2 + 3 + 2 * 64];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 24) return false;
  const uint64_t nr = buf[0];
  e.time_enabled = buf[1];
  e.time_running = buf[2];
  for (uint64_t i = 0; i < nr && 3 + 2 * i + 1 < static_cast<uint64_t>(n) / 8; ++i)
    e.values.push_back(ReadValue{buf[3 + 2 * i], buf[4 + 2 * i]});
  return true;
}

// --count: the command's own last slice comes from the groups' final values, which also
// sum to the totals.
CountTotals finish_counting(size_t nevents, const OpenedEvents& opened, Converter& conv,
                            uint64_t t_end) {
  std::vector<PerfEvent> finals;
  for (int fd : opened.leaders) {
    PerfEvent e;
    if (read_group(fd, e)) finals.push_back(std::move(e));
  }
  conv.finish_deferred(finals, t_end);
  std::unordered_map<uint64_t, size_t> event_of_id;
  for (const auto& [id, info] : opened.ids) event_of_id[id] = info.event;
  return sum_final_reads(finals, event_of_id, nevents);
}

}  // namespace

CountTotals write_closing_records(const Options& opt, size_t nevents, OpenedEvents& opened,
                                  Merger& merger, Converter& conv, LogSink& sink) {
  // Stop counting, take what is left, then the final values and CLOSELOG.
  set_enabled(opened, false);
  drain(opened, merger);
  merger.flush_all();
  const uint64_t t_end = monotonic_ns();
  conv.finish(t_end);
  CountTotals count_totals;
  if (opt.counting) count_totals = finish_counting(nevents, opened, conv, t_end);
  pmclog::RecordValue r;
  r.kind = pmclog::Kind::closelog;
  sink.emit(r, t_end);
  return count_totals;
}

bool commit_log(LogSink& sink) {
  std::string err;
  if (!sink.commit(err)) {
    diag().error(err + "; no log was written");
    return false;
  }
  return true;
}

}  // namespace record
