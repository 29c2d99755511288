#include "pmcprofile/find_debuginfo.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace pmcprofile {
namespace {

std::string folder_of(const std::string& file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
}

// The candidate is the module's debug file: the same build id when the module has one, else
// the CRC-32 its .gnu_debuglink gives.
bool matches(int fd, const unsigned char* id, int id_len, GElf_Word crc) {
  if (id_len > 0) {
    Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    if (elf == nullptr) return false;
    const void* other = nullptr;
    const ssize_t n = dwelf_elf_gnu_build_id(elf, &other);
    const bool same = n == id_len && std::memcmp(other, id, static_cast<size_t>(n)) == 0;
    elf_end(elf);
    return same;
  }
  uLong sum = crc32(0, nullptr, 0);
  std::vector<unsigned char> buf(1 << 16);
  for (ssize_t n; (n = read(fd, buf.data(), buf.size())) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    sum = crc32(sum, buf.data(), static_cast<uInt>(n));
  }
  return lseek(fd, 0, SEEK_SET) == 0 && sum == crc;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

int by_debuglink(Dwfl_Module* mod, const std::string& path, const std::string& file,
                 const char* link, GElf_Word crc, char** found) {
  const unsigned char* id = nullptr;
  GElf_Addr id_at = 0;
  const int id_len = dwfl_module_build_id(mod, &id, &id_at);
  const std::string folder = folder_of(file);
  size_t at = 0;
  for (;;) {
    const size_t end = std::min(path.find(':', at), path.size());
    std::string element = path.substr(at, end - at);
    if (!element.empty() && (element[0] == '+' || element[0] == '-')) element.erase(0, 1);
    const std::string dir = element.empty()      ? folder
                            : element[0] == '/' ? element + (folder[0] == '/' ? "" : "/") + folder
                                                : folder + "/" + element;
    const std::string candidate = dir + "/" + link;
    if (!same_file(candidate, file)) {
      const int fd = open(candidate.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        if (matches(fd, id, id_len, crc)) {
          *found = strdup(candidate.c_str());
          return fd;
        }
        close(fd);
      }
    }
    if (end == path.size()) return -1;
    at = end + 1;
  }
}

}  // namespace

int find_local_debuginfo(Dwfl_Module* mod, void** userdata, const char* modname, Dwarf_Addr base,
                         const char* file_name, const char* debuglink_file,
                         GElf_Word debuglink_crc, char** debuginfo_file_name) {
  const char* servers = std::getenv("DEBUGINFOD_URLS");
  static const std::string kDefaultPath = ":.debug:/usr/lib/debug";
  const auto* given = userdata != nullptr ? static_cast<const std::string*>(*userdata) : nullptr;
  const std::string* path = given != nullptr ? given : &kDefaultPath;
  if (servers != nullptr && servers[0] != '\0')
    return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
                                        debuglink_crc, debuginfo_file_name);
  int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
                                        debuglink_crc, debuginfo_file_name);
  if (fd >= 0 || file_name == nullptr || debuglink_file == nullptr) return fd;
  errno = 0;
  fd = by_debuglink(mod, *path, file_name, debuglink_file, debuglink_crc, debuginfo_file_name);
  if (fd >= 0) return fd;
  // A symlink's debug file may sit by its target.
  if (char* real = realpath(file_name, nullptr); real != nullptr) {
    const std::string target = real;
    std::free(real);
    if (target != file_name)
      fd = by_debuglink(mod, *path, target, debuglink_file, debuglink_crc, debuginfo_file_name);
  }
  return fd;
}

}  // namespace pmcprofile
