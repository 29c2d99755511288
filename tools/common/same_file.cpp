#include "same_file.h"

#include <sys/stat.h>
#include <unistd.h>

namespace pmclog::tools {

namespace {
bool stat_of(const std::string& path, int std_fd, struct stat& st) {
  return path == "-" ? fstat(std_fd, &st) == 0 : stat(path.c_str(), &st) == 0;
}
}  // namespace

OutputError refuse_same_file(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (!stat_of(output, STDOUT_FILENO, out) || !S_ISREG(out.st_mode)) return {};
  for (const std::string& in : inputs) {
    struct stat st {};
    if (!stat_of(in, STDIN_FILENO, st)) continue;
    if (st.st_dev == out.st_dev && st.st_ino == out.st_ino) {
      const std::string o = output == "-" ? "standard output" : "'" + output + "'";
      const std::string i = in == "-" ? "(stdin)" : "the input '" + in + "'";
      return {OutputError::Kind::same_as_input,
              "the output " + o + " is the same file as " + i +
                  "; refusing to overwrite what is being read"};
    }
  }
  return {};
}

}  // namespace pmclog::tools
