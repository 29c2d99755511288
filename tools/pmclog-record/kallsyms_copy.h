// --kallsyms FILE: a copy of /proc/kallsyms saved as the recording ends, so that the log's
// kernel frames can be named after a reboot, on another machine, or without the kernel's
// tens of milliseconds of making the file again (pmclog-report --kallsyms FILE). perf record
// keeps the same copy in its build-id cache; here it goes only where the user says.
#pragma once

#include <string>

#include "output_file.h"

namespace record {

class KallsymsCopy {
 public:
  explicit KallsymsCopy(std::string path) : path_(std::move(path)) {}
  bool wanted() const { return !path_.empty(); }

  // Opens FILE (a temporary beside a regular one) with the log's output, so that a refused
  // FILE is reported before anything is recorded. False with the message printed.
  bool open();

  // Copies the running kernel's table into FILE and commits it. With no kernel frames in
  // the log (--user-only, or kernel sampling refused), nothing is written and a warning says
  // so. False with the message printed when the copy fails or would be useless: the kernel
  // hides its addresses from this user (kernel.kptr_restrict).
  bool save(bool kernel_recorded);

 private:
  std::string path_;
  pmclog::tools::OutputFile out_;
};

}  // namespace record
