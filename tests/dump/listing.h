// Reads the `rec=` lines of a fixture's NAME.expected.txt (fixtures/golden/README.md): the
// independent record listing the dump's output is checked against.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dumptest {

struct ListedValue {
  bool is_string = false;
  bool is_list = false;
  uint64_t number = 0;
  std::string text;
  std::vector<uint64_t> list;
};

struct ListedRecord {
  uint64_t off = 0, len = 0;
  std::string type;  // format.md name, e.g. "MAP_IN"
  int code = -1;
  std::map<std::string, ListedValue> fields;  // everything else, ts_sec/tsc included
};

std::vector<ListedRecord> read_listing(const std::string& path);

}  // namespace dumptest
