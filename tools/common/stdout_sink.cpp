#include "stdout_sink.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <streambuf>

namespace pmclog::tools {

namespace {

// operator<< into the sink's buffer: no second buffer, so text written both ways stays in
// order.
class SinkBuf : public std::streambuf {
 public:
  explicit SinkBuf(StdoutSink& s) : sink_(s) {}

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      const char ch = traits_type::to_char_type(c);
      sink_.write(std::string_view(&ch, 1));
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    sink_.write(std::string_view(s, static_cast<size_t>(n)));
    return n;
  }

 private:
  StdoutSink& sink_;
};

}  // namespace

OutputError StdoutSink::flush() {
  size_t done = 0;
  while (!error_ && done < buf.size()) {
    const ssize_t n = ::write(STDOUT_FILENO, buf.data() + done, buf.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error_.kind = errno == EPIPE ? OutputError::Kind::closed_pipe : OutputError::Kind::io;
      error_.message = std::string("standard output: ") + std::strerror(errno);
      break;
    }
    done += static_cast<size_t>(n);
  }
  buf.clear();
  return error_;
}

std::ostream& StdoutSink::stream() {
  static SinkBuf sb(*this);
  static std::ostream os(&sb);
  return os;
}

StdoutSink& standard_output() {
  static StdoutSink s;
  return s;
}

}  // namespace pmclog::tools
