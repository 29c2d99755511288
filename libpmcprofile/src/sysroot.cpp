#include "pmcprofile/sysroot.h"

#include <sys/stat.h>
#include <unistd.h>

#include <string_view>
#include <vector>

namespace pmcprofile {
namespace {

constexpr int kMaxSymlinks = 40;  // Linux's MAXSYMLINKS

// Pushes the components of `p` onto the front of `todo` (which is consumed from the back).
void push_components(std::string_view p, std::vector<std::string>& todo) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < p.size()) {
    while (i < p.size() && p[i] == '/') ++i;
    size_t j = i;
    while (j < p.size() && p[j] != '/') ++j;
    if (j > i) parts.emplace_back(p.substr(i, j - i));
    i = j;
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) todo.push_back(std::move(*it));
}

std::string join(const std::string& root, const std::vector<std::string>& inside) {
  std::string s = root;
  for (const auto& c : inside) {
    s += '/';
    s += c;
  }
  return s;
}

}  // namespace

std::optional<std::string> resolve_in_sysroot(const std::string& root, const std::string& path) {
  struct stat st;
  if (root.empty()) {
    if (path.empty() || path[0] != '/') return std::nullopt;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return path;
  }
  std::string base = root;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  std::vector<std::string> todo;  // components still to walk, next one at the back
  push_components(path, todo);
  std::vector<std::string> inside;  // components walked so far, all real directories
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.back());
    todo.pop_back();
    if (c == ".") continue;
    if (c == "..") {
      if (!inside.empty()) inside.pop_back();  // never above the root
      continue;
    }
    inside.push_back(c);
    const std::string host = join(base, inside);
    if (lstat(host.c_str(), &st) != 0) return std::nullopt;
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxSymlinks) return std::nullopt;
      std::string target(static_cast<size_t>(st.st_size > 0 ? st.st_size : 4096), '\0');
      const ssize_t n = readlink(host.c_str(), target.data(), target.size());
      if (n <= 0) return std::nullopt;
      target.resize(static_cast<size_t>(n));
      inside.pop_back();
      if (target[0] == '/') inside.clear();  // absolute: from the sysroot's root
      push_components(target, todo);
      continue;
    }
    if (!todo.empty() && !S_ISDIR(st.st_mode)) return std::nullopt;
  }
  const std::string host = join(base, inside);
  if (lstat(host.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return host;
}

}  // namespace pmcprofile
