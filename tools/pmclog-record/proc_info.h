// What /proc says about a process: its executable mappings, image path, name and threads.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace record {

struct ProcMapping {
  uint64_t start = 0, end = 0, offset = 0;
  bool exec = false;
  std::string path;  // empty for anonymous mappings
};

// Mappings of /proc/PID/maps (all of them; callers keep the executable ones).
std::vector<ProcMapping> read_proc_maps(pid_t pid);
std::string proc_exe(pid_t pid);   // readlink of /proc/PID/exe, empty if unavailable
std::string proc_comm(pid_t pid);  // /proc/PID/comm without the newline
std::vector<pid_t> proc_threads(pid_t pid);  // /proc/PID/task entries
std::vector<pid_t> all_pids();               // numeric entries of /proc
bool process_exists(pid_t pid);
// The process (thread group) of a thread id, from /proc/TID/status; nullopt when no such
// thread exists.
std::optional<pid_t> thread_process(pid_t tid);

// The program execvp(3) would run for `command`, or nullopt with a reason when none;
// `found` then says whether some candidate exists but cannot be run (a shell's 126, not 127).
std::optional<std::string> resolve_command(const std::string& command, std::string& why,
                                           bool& found);

}  // namespace record
