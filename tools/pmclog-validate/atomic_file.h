// Writing an output file so that readers never see it half-written: a temporary name in the
// same directory, then rename(2).
#pragma once

#include <string>

namespace pmclog::validate {

// False with `err` set when the file could not be written; no temporary is left behind.
bool write_file_atomically(const std::string& path, const std::string& data, std::string& err);

}  // namespace pmclog::validate
