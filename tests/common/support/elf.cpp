#include "support/elf.h"

#include <sstream>

#include "support/process.h"

namespace pmclog_test {

std::string build_id(const std::string& binary) {
  std::istringstream in(run({"readelf", "-n", binary}).out);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find("Build ID: ");
    if (at != std::string::npos) return line.substr(at + 10);
  }
  return "";
}

}  // namespace pmclog_test
