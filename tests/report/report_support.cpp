#include "report_support.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace reptest {

TempDir::TempDir() {
  std::string t = (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
  t += "/pmclog-report-test.XXXXXX";
  if (mkdtemp(t.data()) == nullptr) throw std::runtime_error("mkdtemp");
  path = t;
}
TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

void write_file(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary) << data;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void make_dirs(const std::string& path) { std::filesystem::create_directories(path); }

void copy_file(const std::string& from, const std::string& to) {
  make_dirs(std::filesystem::path(to).parent_path().string());
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
}

void copy_as_freebsd_elf(const std::string& from, const std::string& to) {
  copy_file(from, to);
  std::string bytes = read_file(to);
  constexpr size_t kEiOsAbi = 7;
  if (bytes.size() <= kEiOsAbi || bytes.compare(0, 4, "\x7f" "ELF") != 0)
    throw std::runtime_error("not ELF: " + from);
  bytes[kEiOsAbi] = 9;  // ELFOSABI_FREEBSD
  write_file(to, bytes);
}

RunResult run(const std::vector<std::string>& argv, const std::string& input) {
  TempDir d;
  const std::string in = d.file("in"), out = d.file("out"), err = d.file("err");
  write_file(in, input);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  RunResult r;
  if (posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ) == 0) {
    int st = 0;
    waitpid(pid, &st, 0);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
  posix_spawn_file_actions_destroy(&fa);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

namespace {
std::string shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}
}  // namespace

uint64_t symbol_address(const std::string& binary, const std::string& symbol) {
  std::istringstream in(shell("nm '" + binary + "' 2>/dev/null"));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string addr, type, name;
    if (ls >> addr >> type >> name && name == symbol) return std::strtoull(addr.c_str(), nullptr, 16);
  }
  return 0;
}

std::string build_id(const std::string& binary) {
  std::istringstream in(shell("readelf -n '" + binary + "' 2>/dev/null"));
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find("Build ID: ");
    if (at != std::string::npos) return line.substr(at + 10);
  }
  return "";
}

uint64_t exec_segment_page(const std::string& binary) {
  std::istringstream in(shell("readelf -lW '" + binary + "' 2>/dev/null"));
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

std::string write_log(const TempDir& dir, const std::string& name,
                      const std::vector<std::string>& jsonl) {
  std::string text;
  for (const auto& l : jsonl) text += l + "\n";
  const std::string src = dir.file(name + ".jsonl"), log = dir.file(name);
  write_file(src, text);
  const RunResult r = run({WRITE_EXE, "-q", "-o", log, src});
  if (r.status != 0) throw std::runtime_error("pmclog-write failed: " + r.err);
  return log;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace reptest
