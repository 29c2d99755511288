// The one /proc/kallsyms reader (pmcprofile/kallsyms.h), on files whose answers are known.
#include "pmcprofile/kallsyms.h"

#include <gtest/gtest.h>

#include <string>

#include "support/files.h"
#include "support/scratch.h"

namespace {

class KallsymsFile : public ::testing::Test {
 protected:
  void write(const std::string& text) { pmclog_test::write_file(path_, text); }
  pmclog_test::ScratchDir dir_;
  std::string path_ = dir_.file("kallsyms_test.txt");
};

TEST_F(KallsymsFile, CodeSymbolsSortedWithoutDataOrModule) {
  write("ffffffff81000200 T second\n"
        "ffffffff81000100 t first\n"
        "ffffffff81000100 W first_alias\n"
        "ffffffff82000000 D some_data\n"
        "ffffffffc0001000 t mod_func\t[ext4]\n"
        "garbage line\n"
        "ffffffff81000300 w weak_one\n");
  const auto syms = pmcprofile::read_kernel_code_symbols(path_);
  ASSERT_EQ(syms.size(), 5u);
  EXPECT_EQ(syms[0].address, 0xffffffff81000100u);
  EXPECT_EQ(syms[0].name, "first");
  EXPECT_EQ(syms[1].name, "first_alias");  // one address: the file's order
  EXPECT_EQ(syms[2].name, "second");
  EXPECT_EQ(syms[3].name, "weak_one");
  EXPECT_EQ(syms[4].name, "mod_func");  // the module is not part of the name
  EXPECT_EQ(syms[4].address, 0xffffffffc0001000u);
}

TEST_F(KallsymsFile, TextStartPrefersTextOverStext) {
  write("ffffffff81000040 T _stext\nffffffff81000000 T _text\n");
  EXPECT_EQ(pmcprofile::kernel_text_start(path_), 0xffffffff81000000u);
  write("0000000000000000 A fixed_percpu_data\nffffffff81000040 T _stext\n");
  EXPECT_EQ(pmcprofile::kernel_text_start(path_), 0xffffffff81000040u);
  write("0000000000000000 T _text\n");  // kptr_restrict: hidden addresses read as 0
  EXPECT_EQ(pmcprofile::kernel_text_start(path_), 0u);
}

TEST(Kallsyms, MissingFileIsEmpty) {
  EXPECT_TRUE(pmcprofile::read_kernel_code_symbols("/nonexistent/kallsyms").empty());
  EXPECT_EQ(pmcprofile::kernel_text_start("/nonexistent/kallsyms"), 0u);
}

}  // namespace
