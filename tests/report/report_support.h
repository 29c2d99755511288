// Helpers of the pmclog-report tests: running the tools, temporary folders, reading `top`
// and `folded` text back, and ELF facts from binutils (nm, readelf) as an independent oracle.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace reptest {

struct RunResult {
  int status = -1;  // exit code, or 128+signal
  std::string out, err;
};
// Runs argv (argv[0] a path) with `input` on standard input.
RunResult run(const std::vector<std::string>& argv, const std::string& input = "");

struct TempDir {
  TempDir();
  ~TempDir();
  std::string path;
  std::string file(const std::string& name) const { return path + "/" + name; }
};

void write_file(const std::string& path, const std::string& data);
std::string read_file(const std::string& path);
void copy_file(const std::string& from, const std::string& to);  // makes parent folders
void make_dirs(const std::string& path);

// nm's address of a symbol (0 when absent); readelf's build id ("" when none).
uint64_t symbol_address(const std::string& binary, const std::string& symbol);
std::string build_id(const std::string& binary);
// The lowest executable PT_LOAD address rounded down to 4 KiB, from readelf -lW.
uint64_t exec_segment_page(const std::string& binary);

struct TopRow {
  std::string event;
  uint64_t self = 0, total = 0;
  std::vector<std::string> columns;  // after the four number columns (command, object, symbol)
  const std::string& symbol() const { return columns.back(); }
};
std::vector<TopRow> parse_top(const std::string& text);
// "stack" -> count; every line must be "frames count".
std::map<std::string, uint64_t> parse_folded(const std::string& text);

// Runs pmclog-write on JSON Lines; returns the log's path (in `dir`).
std::string write_log(const TempDir& dir, const std::string& name,
                      const std::vector<std::string>& jsonl);
std::string hex(uint64_t v);

}  // namespace reptest
