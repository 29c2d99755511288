// A fresh folder under the system's temporary folder for one test, removed with everything
// in it when the object goes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pmclog_test {

class ScratchDir {
 public:
  ScratchDir();  // throws std::runtime_error when no folder can be made
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Names in the folder, sorted: what a run left behind.
  std::vector<std::string> names() const { return names_of(path_); }
  static std::vector<std::string> names_of(const std::filesystem::path& folder);
  // The same, one a line.
  std::string listing() const { return listing_of(path_); }
  static std::string listing_of(const std::filesystem::path& folder);

 private:
  std::filesystem::path path_;
};

}  // namespace pmclog_test
