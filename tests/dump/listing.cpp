#include "listing.h"

#include <sstream>

#include "run_tool.h"

namespace dumptest {

namespace {

uint64_t number(const std::string& s) {
  return std::stoull(s, nullptr, s.rfind("0x", 0) == 0 ? 16 : 10);
}

}  // namespace

std::vector<ListedRecord> read_listing(const std::string& path) {
  std::vector<ListedRecord> out;
  for (const auto& line : lines(slurp(path))) {
    if (line.rfind("rec=", 0) != 0) continue;
    ListedRecord rec;
    size_t i = 0;
    while (i < line.size()) {
      const size_t eq = line.find('=', i);
      if (eq == std::string::npos) break;
      const std::string key = line.substr(i, eq - i);
      size_t end;
      ListedValue v;
      if (line[eq + 1] == '"') {
        // a quoted string ends at a quote followed by a space, or at the line's last quote
        end = line.find("\" ", eq + 2);
        if (end == std::string::npos) end = line.rfind('"');
        v.is_string = true;
        v.text = line.substr(eq + 2, end - eq - 2);
        end += 1;
      } else if (line[eq + 1] == '[') {
        end = line.find(']', eq);
        v.is_list = true;
        std::stringstream ss(line.substr(eq + 2, end - eq - 2));
        for (std::string item; std::getline(ss, item, ',');) v.list.push_back(number(item));
        end += 1;
      } else {
        end = line.find(' ', eq);
        if (end == std::string::npos) end = line.size();
        v.text = line.substr(eq + 1, end - eq - 1);
      }
      if (key == "type") {
        const size_t paren = v.text.find('(');
        rec.type = v.text.substr(0, paren);
        rec.code = std::stoi(v.text.substr(paren + 1));
      } else if (key == "off") {
        rec.off = number(v.text);
      } else if (key == "len") {
        rec.len = number(v.text);
      } else if (key != "rec") {
        if (!v.is_string && !v.is_list) v.number = number(v.text);
        rec.fields[key] = v;
      }
      i = end + 1;
    }
    out.push_back(rec);
  }
  return out;
}

}  // namespace dumptest
