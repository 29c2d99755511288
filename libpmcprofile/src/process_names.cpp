#include "process_names.h"

#include "pmclog/pmclog.h"

namespace pmcprofile {
namespace {

std::string base_name(std::string_view p) {
  const size_t s = p.rfind('/');
  return std::string(s == std::string_view::npos ? p : p.substr(s + 1));
}

}  // namespace

void ProcessNames::attach(uint32_t pid, std::string_view path) {
  if (!comm_.count(pid)) comm_[pid] = base_name(path);
}

void ProcessNames::exec(uint32_t pid, std::string_view path) { comm_[pid] = base_name(path); }

std::string ProcessNames::comm_of(uint32_t pid) const {
  auto it = comm_.find(pid);
  if (it != comm_.end()) return it->second;
  if (pid == pmclog::kKernelPid) return "[kernel]";
  std::string s = ":";
  s += std::to_string(pid);
  return s;
}

uint32_t ProcessNames::comm_id(uint32_t pid) {
  auto ci = comm_ids_.find(pid);
  if (ci == comm_ids_.end()) ci = comm_ids_.emplace(pid, t_.comm(comm_of(pid))).first;
  return ci->second;
}

uint32_t ProcessNames::thread_id_of(uint32_t tid) {
  auto ti = thread_ids_.find(tid);
  if (ti == thread_ids_.end()) {
    auto name = threads_.find(tid);
    ti = thread_ids_.emplace(tid, name == threads_.end() ? 0 : t_.thread(name->second)).first;
  }
  return ti->second;
}

void ProcessNames::forget_ids() {
  comm_ids_.clear();
  thread_ids_.clear();
  thread_run_.clear();
}

}  // namespace pmcprofile
