#include "pmcprofile/kallsyms.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string_view>

namespace pmcprofile {
namespace {

struct Line {
  uint64_t address;
  char type;
  std::string_view name;  // up to the tab that precedes a module
};

// False for a line that is not "ADDRESS TYPE NAME".
bool parse(const std::string& line, Line& out) {
  const size_t s1 = line.find(' ');
  if (s1 == std::string::npos || line.size() < s1 + 4 || line[s1 + 2] != ' ') return false;
  out.address = std::strtoull(line.c_str(), nullptr, 16);
  out.type = line[s1 + 1];
  out.name = std::string_view(line).substr(s1 + 3);
  out.name = out.name.substr(0, out.name.find('\t'));
  return true;
}

std::atomic<uint64_t> g_reads{0};

}  // namespace

uint64_t kallsyms_reads() { return g_reads.load(); }

std::vector<KernelSymbol> read_kernel_code_symbols(const std::string& path) {
  ++g_reads;
  std::vector<KernelSymbol> out;
  std::ifstream in(path);
  std::string line;
  Line l;
  while (std::getline(in, line)) {
    if (!parse(line, l)) continue;
    if (l.type != 't' && l.type != 'T' && l.type != 'w' && l.type != 'W') continue;
    out.push_back({l.address, std::string(l.name)});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const KernelSymbol& a, const KernelSymbol& b) { return a.address < b.address; });
  return out;
}

uint64_t kernel_text_start(const std::string& path) {
  ++g_reads;
  std::ifstream in(path);
  std::string line;
  Line l;
  uint64_t stext = 0;
  while (std::getline(in, line)) {
    if (!parse(line, l)) continue;
    if (l.name == "_text") return l.address;
    if (l.name == "_stext" && stext == 0) stext = l.address;
  }
  return stext;
}

}  // namespace pmcprofile
