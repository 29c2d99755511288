// Record selection (--type --pid --pmcid --cpu --from-offset --to-offset); --head is
// counted by the driver over the selected records.
#pragma once

#include "options.h"
#include "pmclog/abi.h"
#include "pmclog/record.h"

namespace dump {

bool selected(const Selection& s, const pmclog::Record& r, pmclog::Generation g);

}  // namespace dump
