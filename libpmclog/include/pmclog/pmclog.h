// Umbrella header for libpmclog.
#pragma once

#include "pmclog/abi.h"
#include "pmclog/decode.h"
#include "pmclog/detect.h"
#include "pmclog/encode.h"
#include "pmclog/error.h"
#include "pmclog/event_names.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"
#include "pmclog/open.h"
#include "pmclog/parts.h"
#include "pmclog/reader.h"
#include "pmclog/record.h"
