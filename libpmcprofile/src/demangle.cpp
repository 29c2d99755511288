#include <cxxabi.h>

#include <cstdlib>

#include "pmcprofile/symbolizer.h"

namespace pmcprofile {

std::string demangle(const std::string& name) {
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (d == nullptr || status != 0) {
    std::free(d);
    return name;
  }
  std::string out(d);
  std::free(d);
  return out;
}

}  // namespace pmcprofile
