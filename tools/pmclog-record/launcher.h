// Starting the profiled command: the child is forked first and waits on a pipe, so the
// counters can be attached to it (enable_on_exec) before it execs.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace record {

class Launcher {
 public:
  // Forks the child, which blocks until go(). Returns false with a message on failure.
  bool prepare(const std::string& path, const std::vector<std::string>& argv, std::string& err);
  // Lets the child exec. Returns false with a message when the exec failed (`exec_errno`
  // then holds execv's errno, 0 when the child could not be started at all).
  bool go(std::string& err, int& exec_errno);
  pid_t pid() const { return pid_; }
  // Kills and reaps a child that was prepared but never released.
  void abort();

 private:
  pid_t pid_ = -1;
  int go_fd_ = -1;     // parent writes one byte to release the child
  int err_fd_ = -1;    // child writes errno if execv fails (close-on-exec otherwise)
};

}  // namespace record
