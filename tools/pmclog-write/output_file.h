// The output of the write tool. A named file is written under a temporary name in the same
// folder and renamed when complete, so a failed or interrupted run never leaves a partial
// file (the temporary is removed on failure and on SIGINT/SIGTERM). "-" is standard output;
// with `spool` it is first collected in an unlinked temporary file, so that a rejected input
// writes nothing at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pmclog::write {

class OutputFile {
 public:
  OutputFile(const std::string& path, bool spool_stdout);  // throws ToolError (I/O, exit 2)
  ~OutputFile();  // removes the temporary unless commit() succeeded
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const uint8_t* p, size_t n);  // throws ToolError
  void commit();                           // rename into place / copy the spool out
  void abort();                            // remove the temporary; idempotent
  const std::string& name() const { return path_; }

 private:
  std::string path_, temp_;
  int fd_ = -1;
  bool to_stdout_ = false, spool_ = false, done_ = false;
};

// Installs SIGINT/SIGTERM handlers that remove the current temporary file and then die by
// the same signal. Called once by main().
void install_cleanup_signal_handlers();

}  // namespace pmclog::write
