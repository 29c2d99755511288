#include "output.h"

#include <unistd.h>

#include <cerrno>

namespace dump {

void Output::flush() {
  size_t done = 0;
  while (done < buf.size()) {
    ssize_t n = ::write(1, buf.data() + done, buf.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      buf.clear();
      if (errno == EPIPE) throw PipeClosed{};
      throw WriteFailed{errno};
    }
    done += static_cast<size_t>(n);
  }
  buf.clear();
}

Output& Output::stdout_() {
  static Output out;
  return out;
}

}  // namespace dump
