// Linked with its C++ libraries' archives and the C++ runtime inside (cmake/StaticLink.cmake),
// pmclog-report needs no shared C++ library: its needed libraries, read from the ELF file's
// dynamic section, are all C libraries. A C++ one among them would load a second C++ runtime.
#include <fcntl.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> needed(const char* path) {
  std::vector<std::string> out;
  elf_version(EV_CURRENT);
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  for (Elf_Scn* scn = nullptr; elf != nullptr && (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr || sh.sh_type != SHT_DYNAMIC) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    for (size_t i = 0; data != nullptr && i < sh.sh_size / sh.sh_entsize; ++i) {
      GElf_Dyn dyn;
      if (gelf_getdyn(data, static_cast<int>(i), &dyn) == nullptr || dyn.d_tag != DT_NEEDED)
        continue;
      if (const char* name = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)) out.push_back(name);
    }
  }
  elf_end(elf);
  close(fd);
  return out;
}

TEST(StaticRuntime, TheReportNeedsOnlyCLibraries) {
  if (!REPORT_STATIC) GTEST_SKIP() << "built with shared libraries (sanitizers, or "
                                      "-DPMCLOG_STATIC_RUNTIME=OFF)";
  const std::vector<std::string> libs = needed(REPORT_EXE);
  ASSERT_FALSE(libs.empty()) << REPORT_EXE;
  for (const std::string& l : libs) {
    bool c = false;
    for (const char* lib : {"libc.so", "libm.so", "ld-linux", "libz.so", "libdw.so", "libelf.so",
                            "libzstd.so", "liblzma.so", "libbz2.so"})
      c = c || l.rfind(lib, 0) == 0;
    EXPECT_TRUE(c) << l << ": not one of the C libraries the report may load";
  }
}

}  // namespace
