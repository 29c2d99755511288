// Reading the report's inputs into one Session: one after the other, or several at once.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pmcprofile/session.h"

namespace report {

// Reads `inputs` on up to `jobs` threads, a Session of its own (Options `opt`, without its
// progress callback) for each input, and absorbs them into `into` in input order, so that
// `into` ends as reading them one after the other would leave it. The reading threads also
// do the absorbing, and `before(k)` (where a second profile begins) runs on the one that
// absorbs input k, just before. `done(input, report)` runs on the calling thread, in input
// order, once that input is in `into`; an exception from it, or from a reading thread,
// stops the reading (the threads are joined) and is passed on. At most `jobs` + 1 inputs
// are read ahead of the one absorbed next: memory is that many profiles plus the merged
// one. A report whose input takes the merged profile over opt.max_stacks gets stack_cap,
// as reading it into `into` would have.
void read_in_parallel(pmcprofile::Session& into, const pmcprofile::Options& opt,
                      const std::vector<std::string>& inputs, unsigned jobs,
                      const std::function<void(size_t)>& before,
                      const std::function<void(const std::string&, const pmcprofile::InputReport&)>& done);

}  // namespace report
