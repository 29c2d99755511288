// The end of a recording: the events stopped, what is left in the ring buffers converted,
// with --count the counters' final values, then CLOSELOG; and the log committed.
#pragma once

#include <cstddef>

#include "count_report.h"
#include "event_opening.h"
#include "log_sink.h"
#include "merger.h"
#include "options.h"
#include "record_conversion.h"

namespace record {

// Writes the closing records. Returns --count's totals (empty without --count).
CountTotals write_closing_records(const Options& opt, size_t nevents, OpenedEvents& opened,
                                  Merger& merger, Converter& conv, LogSink& sink);

// Completes the log (LogSink::commit). False with the message printed: no log was written.
bool commit_log(LogSink& sink);

}  // namespace record
