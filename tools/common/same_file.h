// Refusing an output that is one of the inputs: "-o x x" would truncate what is being read.
#pragma once

#include <string>
#include <vector>

#include "output_error.h"

namespace pmclog::tools {

// Compares device and inode, so every spelling (./x, a symlink, a hard link, "-" for standard
// input or output) is caught. Only a regular output can be destroyed, so only a regular one is
// refused: "/dev/null" as input and output is fine. Inputs that do not exist are skipped (the
// tool reports them when it opens them).
OutputError refuse_same_file(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace pmclog::tools
