// Facts about ELF objects from binutils, an oracle independent of the code under test.
#pragma once

#include <string>

namespace pmclog_test {

// readelf's build id of `binary` in hex ("" when it has none).
std::string build_id(const std::string& binary);

}  // namespace pmclog_test
