// Umbrella header for libpmclog.
// Everything a program reading or writing logs needs; docs/library.md is the guide (what
// owns memory, threads, errors, API stability) and examples/ holds programs that compile.
// CMake: find_package(pmclog CONFIG), target pmclog::pmclog (or pmclog::pmclog_static);
// pkg-config: pmclog.
#pragma once

#include "pmclog/abi.h"
#include "pmclog/decode.h"
#include "pmclog/detect.h"
#include "pmclog/encode.h"
#include "pmclog/error.h"
#include "pmclog/event_names.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/legacy_clock.h"
#include "pmclog/names.h"
#include "pmclog/open.h"
#include "pmclog/parts.h"
#include "pmclog/pmu_events.h"
#include "pmclog/reader.h"
#include "pmclog/record.h"
