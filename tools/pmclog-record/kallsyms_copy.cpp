#include "kallsyms_copy.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "diagnostics.h"
#include "pmclog/text.h"
#include "pmcprofile/kallsyms.h"

namespace record {

using pmclog::tools::diag;

namespace {

std::string not_written(const std::string& path) {
  std::string m = "'";  // appended, where "'" + ... trips g++ 12's -Wrestrict
  m += pmclog::display_path(path);
  m += "' not written";
  return m;
}

}  // namespace

bool KallsymsCopy::open() {
  if (!wanted()) return true;
  if (const pmclog::tools::OutputError e = out_.open(path_)) {
    diag().error("--kallsyms: " + e.message);
    return false;
  }
  return true;
}

bool KallsymsCopy::save(bool kernel_recorded) {
  if (!wanted()) return true;
  if (!kernel_recorded) {
    out_.abort();
    diag().warning("--kallsyms: the log has no kernel frames to name; " + not_written(path_));
    return true;
  }
  // Every failure: the copy is dropped, the message says why and that FILE was not written.
  const std::string source = pmcprofile::kKallsymsPath;
  const auto fail = [&](const std::string& why) {
    out_.abort();
    diag().error("--kallsyms: " + why + "; " + not_written(path_));
    return false;
  };
  // A copy of zeros would name nothing: the reader refuses a file without a text start.
  if (pmcprofile::kernel_text_start(source) == 0)
    return fail(source + " hides the kernel's addresses from this user (kernel.kptr_restrict)");
  const int fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(source + ": " + std::strerror(errno));
  std::vector<char> buf(size_t{1} << 16);  // the kernel gives about 4 KiB a read()
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = "reading " + source + ": " + std::strerror(errno);
      ::close(fd);
      return fail(why);
    }
    if (n == 0) break;
    if (out_.write(buf.data(), static_cast<size_t>(n))) break;  // commit() reports it
  }
  ::close(fd);
  if (const pmclog::tools::OutputError e = out_.commit()) {
    diag().error("--kallsyms: " + e.message);
    return false;
  }
  return true;
}

}  // namespace record
