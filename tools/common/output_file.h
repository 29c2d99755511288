// The one way the tools write a file (-o of pmclog-write, pmclog-validate, pmclog-record).
//   - A regular file, or a path that does not exist yet, is written under a temporary name in
//     the same folder and renamed into place by commit(): a failed or interrupted run leaves
//     neither a partial file nor the temporary (see temp_cleanup.h for signals). An existing
//     file keeps its mode, and its owner and group where the caller may set them; one the
//     caller could not open for writing, or could not rename over, is refused at open().
//   - A symlink is followed: its target is replaced and the link stays a link.
//   - Anything else (standard output "-", a character device such as /dev/null, a FIFO, a
//     socket) is opened and written through, never replaced.
//   - An output that is one of the inputs is refused before anything is opened.
// Errors are values; the first one sticks, so a caller may check only at commit().
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "output_error.h"

namespace pmclog::tools {

struct OutputOptions {
  // Paths the output must not be ("-" is standard input): see same_file.h.
  std::vector<std::string> inputs;
  // For a written-through output: collect everything in an anonymous temporary file (in
  // $TMPDIR) and copy it out at commit(), so that a run that fails writes nothing at all.
  bool spool_write_through = false;
};

class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // abort() unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  OutputError open(const std::string& path, const OutputOptions& opt = {});
  OutputError write(const void* data, size_t n);
  OutputError write(const std::string& s) { return write(s.data(), s.size()); }
  // Syncs and renames the temporary into place, or copies the spool out; reports every
  // error of the run, close(2)'s included.
  OutputError commit();
  // Removes the temporary; idempotent. Nothing written through can be taken back.
  void abort();

  // The name messages use: the path as given, or "standard output".
  const std::string& name() const { return name_; }
  // The temporary being written ("" when written through).
  const std::string& temp_path() const { return temp_; }
  bool replaces() const { return !temp_.empty(); }

 private:
  OutputError fail(OutputError::Kind k, const std::string& what, int err);
  OutputError refuse(const std::string& message);
  OutputError open_replacing(const std::string& given, const std::string& target);
  OutputError open_spool();
  OutputError write_fd(int fd, const void* data, size_t n, const std::string& what);

  std::string name_, target_, temp_;
  int fd_ = -1;          // where write() goes: the temporary, the spool or the output itself
  int through_fd_ = -1;  // the written-through output when spooling
  bool own_fd_ = false, spooled_ = false, done_ = false;
  int slot_ = -1;
  OutputError error_;
};

// The same, for a whole text at once: open, write, commit.
OutputError write_whole_file(const std::string& path, const std::string& data,
                             const OutputOptions& opt = {});

}  // namespace pmclog::tools
