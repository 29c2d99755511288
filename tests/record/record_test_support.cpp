#include "record_test_support.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <utility>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace rectest {

namespace {
std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

RunResult run(const std::vector<std::string>& argv, const std::function<void(pid_t)>& during,
              int uid) {
  TempDir io;
  const std::string out = io.file("out"), err = io.file("err");
  RunResult r;
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int n = open("/dev/null", O_RDONLY);
    dup2(n, 0);
    dup2(o, 1);
    dup2(e, 2);
    if (uid >= 0 && (setgid(static_cast<gid_t>(uid)) != 0 || setuid(static_cast<uid_t>(uid)) != 0))
      _exit(125);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(126);
  }
  if (during) during(pid);
  int st = 0;
  waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

RunResult run_with_stdout(const std::vector<std::string>& argv, int out_fd,
                          const std::function<void(pid_t)>& during) {
  TempDir io;
  const std::string err = io.file("err");
  RunResult r;
  pid_t pid = fork();
  if (pid == 0) {
    int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int n = open("/dev/null", O_RDONLY);
    dup2(n, 0);
    dup2(out_fd, 1);
    dup2(e, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(126);
  }
  if (during) during(pid);
  int st = 0;
  waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.err = slurp(err);
  return r;
}

std::vector<const pmclog::RecordValue*> Log::of(pmclog::Kind k) const {
  std::vector<const pmclog::RecordValue*> v;
  for (const auto& r : records)
    if (r.kind == k) v.push_back(&r);
  return v;
}

Log read_log(const std::string& path) {
  Log log;
  auto opened = pmclog::open_log(path);
  if (!opened) {
    log.error = opened.error().message;
    return log;
  }
  log.abi = opened->detection.abi;
  pmclog::Record r;
  pmclog::Error e;
  for (;;) {
    auto step = opened->reader->next(r, e);
    if (step == pmclog::Step::end) break;
    if (step == pmclog::Step::error) {
      log.error = e.message;
      return log;
    }
    log.records.push_back(pmclog::to_value(r, log.abi));
  }
  log.ok = true;
  return log;
}

TempDir::TempDir() {
  char tmpl[] = "/tmp/pmclog-record-test-XXXXXX";
  if (mkdtemp(tmpl)) path = tmpl;
}

TempDir::~TempDir() {
  for (const auto& e : entries()) unlink(file(e).c_str());
  rmdir(path.c_str());
}

std::vector<std::string> TempDir::entries() const {
  std::vector<std::string> out;
  if (DIR* d = opendir(path.c_str())) {
    while (dirent* e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
        out.emplace_back(e->d_name);
    closedir(d);
  }
  return out;
}

bool file_exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::string real_path(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? std::string(buf) : p;
}

namespace {
// The address and size of a symbol from `nm -S` ({0, 0} when unknown).
std::pair<uint64_t, uint64_t> nm_symbol(const std::string& binary, const std::string& symbol) {
  std::string cmd = "nm -S --defined-only '" + binary + "' 2>/dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return {0, 0};
  char line[512];
  std::pair<uint64_t, uint64_t> found{0, 0};
  while (std::fgets(line, sizeof line, f)) {
    char addr[64], sz[64], type[8], name[256];
    if (std::sscanf(line, "%63s %63s %7s %255s", addr, sz, type, name) == 4 && symbol == name)
      found = {std::strtoull(addr, nullptr, 16), std::strtoull(sz, nullptr, 16)};
  }
  pclose(f);
  return found;
}
}  // namespace

uint64_t symbol_size(const std::string& binary, const std::string& symbol) {
  return nm_symbol(binary, symbol).second;
}

uint64_t symbol_address(const std::string& binary, const std::string& symbol) {
  return nm_symbol(binary, symbol).first;
}

bool output_value(const std::string& out, const std::string& key, uint64_t& value) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + " ", 0) == 0) {
      value = std::strtoull(line.c_str() + key.size() + 1, nullptr, 0);
      return true;
    }
  }
  return false;
}

int validate(const std::string& path, std::string* report, bool strict) {
#ifdef PMCLOG_VALIDATE_EXE
  auto r = strict ? run({PMCLOG_VALIDATE_EXE, "--strict", path}) : run({PMCLOG_VALIDATE_EXE, path});
  if (report) *report = r.out + r.err;
  return r.status;
#else
  (void)path;
  (void)report;
  (void)strict;
  return -1;
#endif
}

}  // namespace rectest
