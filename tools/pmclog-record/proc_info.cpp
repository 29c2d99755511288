#include "proc_info.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace record {

namespace {
// "/proc/PID/leaf", built by appending (g++-12 warns falsely on "lit" + std::string).
std::string proc_file(pid_t pid, const char* leaf) {
  std::string p = "/proc/";
  p += std::to_string(pid);
  p += '/';
  p += leaf;
  return p;
}
}  // namespace

std::vector<ProcMapping> read_proc_maps(pid_t pid) {
  std::vector<ProcMapping> out;
  std::ifstream f(proc_file(pid, "maps"));
  std::string line;
  while (std::getline(f, line)) {
    // start-end perms offset dev inode [path]
    std::istringstream in(line);
    std::string range, perms, offset, dev, inode;
    if (!(in >> range >> perms >> offset >> dev >> inode)) continue;
    ProcMapping m;
    size_t dash = range.find('-');
    if (dash == std::string::npos) continue;
    m.start = std::strtoull(range.c_str(), nullptr, 16);
    m.end = std::strtoull(range.c_str() + dash + 1, nullptr, 16);
    m.offset = std::strtoull(offset.c_str(), nullptr, 16);
    m.exec = perms.size() >= 3 && perms[2] == 'x';
    std::getline(in >> std::ws, m.path);
    out.push_back(std::move(m));
  }
  return out;
}

std::string proc_exe(pid_t pid) {
  char buf[4096];
  std::string link = proc_file(pid, "exe");
  ssize_t n = readlink(link.c_str(), buf, sizeof(buf) - 1);
  if (n <= 0) return {};
  return std::string(buf, static_cast<size_t>(n));
}

std::string proc_comm(pid_t pid) {
  std::ifstream f(proc_file(pid, "comm"));
  std::string s;
  std::getline(f, s);
  return s;
}

namespace {
std::vector<pid_t> numeric_entries(const std::string& dir) {
  std::vector<pid_t> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    long v = std::strtol(e->d_name, &end, 10);
    if (end && *end == '\0' && v > 0) out.push_back(static_cast<pid_t>(v));
  }
  closedir(d);
  return out;
}
}  // namespace

std::vector<pid_t> proc_threads(pid_t pid) {
  return numeric_entries(proc_file(pid, "task"));
}

std::vector<pid_t> all_pids() { return numeric_entries("/proc"); }

std::optional<pid_t> thread_process(pid_t tid) {
  std::ifstream f("/proc/" + std::to_string(tid) + "/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("Tgid:", 0) == 0) {
      const long v = std::strtol(line.c_str() + 5, nullptr, 10);
      if (v > 0) return static_cast<pid_t>(v);
    }
  return std::nullopt;
}

bool process_exists(pid_t pid) { return kill(pid, 0) == 0 || errno == EPERM; }

std::optional<std::string> resolve_command(const std::string& command, std::string& why,
                                           bool& found) {
  found = false;
  std::string first_why;  // the reason of the first candidate that exists (bash reports it)
  auto runnable = [&](const std::string& p) {
    struct stat st;
    if (stat(p.c_str(), &st) != 0) { why = std::strerror(errno); return false; }
    if (S_ISDIR(st.st_mode)) why = "is a directory";
    else if (access(p.c_str(), X_OK) != 0) why = std::strerror(errno);
    else return true;
    if (!found) first_why = why;
    found = true;
    return false;
  };
  if (command.empty()) { why = "empty command"; return std::nullopt; }
  if (command.find('/') != std::string::npos) {
    if (runnable(command)) return command;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t pos = 0;
  while (pos <= dirs.size()) {
    size_t colon = dirs.find(':', pos);
    if (colon == std::string::npos) colon = dirs.size();
    std::string cand = colon > pos ? dirs.substr(pos, colon - pos) : std::string(".");
    cand += '/';
    cand += command;
    if (runnable(cand)) return cand;
    pos = colon + 1;
  }
  why = found ? first_why : "not found in PATH";
  return std::nullopt;
}

}  // namespace record
