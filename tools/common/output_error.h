// What went wrong with an output, as a value: the tools map the kind to their exit status.
#pragma once

#include <string>

namespace pmclog::tools {

struct [[nodiscard]] OutputError {
  enum class Kind {
    none,
    same_as_input,  // the output is one of the inputs: refused before opening (exit 2)
    io,             // open, write, sync, close or rename failed
    closed_pipe,    // the reader went away (EPIPE): the tools end quietly
  };
  Kind kind = Kind::none;
  std::string message;  // one line, naming the file and the reason

  explicit operator bool() const { return kind != Kind::none; }
};

}  // namespace pmclog::tools
