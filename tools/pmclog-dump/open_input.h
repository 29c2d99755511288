// Opening one input. Regular uncompressed files are streamed through the library's bounded
// reader instead of memory-mapped: the mapped reader keeps every page it has touched
// resident, so a 1 GB log cost 1 GB of resident memory, while the stream stays under 6 MB
// and is no slower (issue 3, item 9). Everything else goes through pmclog::open_log.
#pragma once

#include <memory>
#include <string>

#include "pmclog/open.h"

namespace dump {

struct Input {
  std::string name;  // as given
  pmclog::Compression compression = pmclog::Compression::none;
  pmclog::Detection detection;
  std::unique_ptr<pmclog::LogReader> reader;
  pmclog::OpenLog log;  // owns the reader's resources when opened by the library
  int fd = -1;          // our own descriptor for streamed regular files
  pmclog::LogReader& get() { return reader ? *reader : *log.reader; }
  Input() = default;
  Input(Input&&) noexcept;
  Input& operator=(Input&&) = delete;
  ~Input();
};

// The error's message starts with the name; Errc::io for open/read failures.
pmclog::Result<Input> open_input(const std::string& name, const pmclog::AbiHint& hint);

}  // namespace dump
