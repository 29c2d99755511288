#include "support/scratch.h"

#include <stdlib.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace pmclog_test {

namespace fs = std::filesystem;

ScratchDir::ScratchDir() {
  std::string tmpl = (fs::temp_directory_path() / "pmclog-test.XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp " + tmpl + " failed");
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::vector<std::string> ScratchDir::names_of(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

std::string ScratchDir::listing_of(const fs::path& folder) {
  std::string out;
  for (const auto& n : names_of(folder)) out += n + "\n";
  return out;
}

}  // namespace pmclog_test
