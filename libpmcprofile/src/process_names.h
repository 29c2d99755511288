// Process and thread names as the log's records give them, and their ids in the Tables.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "pmcprofile/profile.h"
#include "run_cache.h"

namespace pmcprofile {

class ProcessNames {
 public:
  explicit ProcessNames(Tables& t) : t_(t) {}

  // PMCATTACH: named after the object unless named already.
  void attach(uint32_t pid, std::string_view path);
  // PROCEXEC: named after the new image.
  void exec(uint32_t pid, std::string_view path);
  // PROCFORK: the child has the parent's name.
  void fork(uint32_t from, uint32_t to) { comm_[to] = comm_of(from); }
  // PROC_CREATE: the kernel's name for it.
  void create(uint32_t pid, const std::string& name) { comm_[pid] = name; }
  void thread_create(uint32_t tid, const std::string& name) { threads_[tid] = name; }
  void thread_exit(uint32_t tid) { threads_.erase(tid); }

  // The name; "[kernel]", or ":PID" (as perf names a process it never saw named).
  std::string comm_of(uint32_t pid) const;
  // Tables::comms id of comm_of(pid), and Tables::threads id of the thread's name ("": 0),
  // kept until forget_ids().
  uint32_t comm_id(uint32_t pid);
  uint32_t thread_id(uint32_t tid) {
    if (const uint32_t* id = thread_run_.find(tid)) return *id;
    return thread_run_.set(tid, thread_id_of(tid));
  }
  // Names changed (or anything else that starts a new stack epoch).
  void forget_ids();

 private:
  uint32_t thread_id_of(uint32_t tid);
  Tables& t_;
  std::unordered_map<uint32_t, std::string> comm_, threads_;
  std::unordered_map<uint32_t, uint32_t> comm_ids_, thread_ids_;
  RunCache<uint32_t> thread_run_;
};

}  // namespace pmcprofile
