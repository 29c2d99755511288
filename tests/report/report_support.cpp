#include "report_support.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace reptest {

void make_dirs(const std::string& path) { std::filesystem::create_directories(path); }

void copy_file(const std::string& from, const std::string& to) {
  make_dirs(std::filesystem::path(to).parent_path().string());
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
}

void copy_as_freebsd_elf(const std::string& from, const std::string& to) {
  copy_file(from, to);
  std::string bytes = slurp(to);
  constexpr size_t kEiOsAbi = 7;
  if (bytes.size() <= kEiOsAbi || bytes.compare(0, 4, "\x7f" "ELF") != 0)
    throw std::runtime_error("not ELF: " + from);
  bytes[kEiOsAbi] = 9;  // ELFOSABI_FREEBSD
  write_file(to, bytes);
}

uint64_t symbol_address(const std::string& binary, const std::string& symbol) {
  std::istringstream in(run({"nm", binary}).out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string addr, type, name;
    if (ls >> addr >> type >> name && name == symbol) return std::strtoull(addr.c_str(), nullptr, 16);
  }
  return 0;
}

uint64_t exec_segment_page(const std::string& binary) {
  std::istringstream in(run({"readelf", "-lW", binary}).out);
  std::string line;
  uint64_t lo = UINT64_MAX;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string type, off, vaddr, paddr, filesz, memsz, flg;
    if (!(ls >> type >> off >> vaddr >> paddr >> filesz >> memsz) || type != "LOAD") continue;
    std::string rest;
    std::getline(ls, rest);
    if (rest.find('E') == std::string::npos) continue;
    lo = std::min<uint64_t>(lo, std::strtoull(vaddr.c_str(), nullptr, 16));
  }
  return lo == UINT64_MAX ? 0 : lo & ~uint64_t{0xFFF};
}

std::vector<TopRow> parse_top(const std::string& text) {
  std::vector<TopRow> rows;
  std::istringstream in(text);
  std::string line, event;
  while (std::getline(in, line)) {
    if (line.rfind("# Event: ", 0) == 0) {
      event = line.substr(9, line.find(',') - 9);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    // Columns are separated by two or more spaces; a symbol may hold single spaces.
    std::vector<std::string> cols;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && line[i] == ' ') ++i;
      size_t j = i;
      while (j < line.size() && !(line[j] == ' ' && j + 1 < line.size() && line[j + 1] == ' ')) ++j;
      if (j > i) cols.push_back(line.substr(i, j - i));
      i = j;
    }
    if (cols.size() < 5) continue;
    TopRow r;
    r.event = event;
    r.self = std::strtoull(cols[0].c_str(), nullptr, 10);
    r.total = std::strtoull(cols[2].c_str(), nullptr, 10);
    r.columns.assign(cols.begin() + 4, cols.end());
    rows.push_back(std::move(r));
  }
  return rows;
}

std::map<std::string, uint64_t> parse_folded(const std::string& text) {
  std::map<std::string, uint64_t> m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t sp = line.rfind(' ');
    if (sp == std::string::npos) throw std::runtime_error("bad folded line: " + line);
    m[line.substr(0, sp)] += std::strtoull(line.c_str() + sp + 1, nullptr, 10);
  }
  return m;
}

std::string write_log(const ScratchDir& dir, const std::string& name,
                      const std::vector<std::string>& jsonl) {
  std::string text;
  for (const auto& l : jsonl) text += l + "\n";
  const std::string src = dir.file(name + ".jsonl"), log = dir.file(name);
  write_file(src, text);
  const Ran r = run({WRITE_EXE, "-q", "-o", log, src});
  if (r.status != 0) throw std::runtime_error("pmclog-write failed: " + r.err);
  return log;
}

std::string shared_recordings() {
  const char* at = std::getenv("PMCLOG_TEST_RECORDINGS");
  if (at == nullptr || *at == '\0') return "";
  return std::filesystem::exists(std::string(at) + "/complete") ? at : "";
}

std::string hot_recording(const ScratchDir& dir) {
  if (const std::string at = shared_recordings(); !at.empty()) return at + "/pie.pmclog";
  const std::string log = dir.file("hot.pmclog");
  const Ran r = run({RECORD_EXE, "-o", log, "--", WORKLOAD_HOT, "0.6"});
  if (r.status != 0) throw std::runtime_error("pmclog-record failed: " + r.err);
  return log;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace reptest
