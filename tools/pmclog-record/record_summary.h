// What a recording prints at its end, to standard error: the summary line, the callchains
// cut and --count's report (none with -q), then the warnings (with -q too).
#pragma once

#include <string>

#include "count_report.h"
#include "log_sink.h"
#include "options.h"
#include "record_conversion.h"
#include "recording_plan.h"

namespace record {

void print_summary(const Options& opt, const RecordingPlan& plan, const std::string& out_path,
                   const LogSink& sink, const Converter& conv, const CountTotals& count_totals);

}  // namespace record
