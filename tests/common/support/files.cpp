#include "support/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace pmclog_test {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> slurp_bytes(const std::filesystem::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

void write_file(const std::filesystem::path& p, std::string_view bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(errno));
}

void write_file(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
  write_file(p, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace pmclog_test
