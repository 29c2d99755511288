// Reading the report's inputs into one Session: one after the other, or several at once.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pmcprofile/session.h"

namespace report {

// Reads `inputs` on up to `jobs` threads, a Session of its own (Options `opt`, without its
// progress callback) for each input, and absorbs them into `into` in input order, so that
// `into` ends as reading them one after the other would leave it. `before(k)` runs just
// before input k is absorbed (where a second profile begins); `done(input, report)` runs
// on the calling thread, in input order, as soon as that input is in `into`; an exception
// from it stops the reading (the threads are joined) and is passed on. At most `jobs`
// inputs are read ahead of the one absorbed next: memory is that many profiles plus the
// merged one. A report whose input takes the merged profile over opt.max_stacks gets
// stack_cap, as reading it into `into` would have.
void read_in_parallel(pmcprofile::Session& into, const pmcprofile::Options& opt,
                      const std::vector<std::string>& inputs, unsigned jobs,
                      const std::function<void(size_t)>& before,
                      const std::function<void(const std::string&, const pmcprofile::InputReport&)>& done);

}  // namespace report
