// The one /proc/kallsyms reader (pmcprofile/kallsyms.h), on files whose answers are known.
#include "pmcprofile/kallsyms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>

#include "pmclog/encode.h"
#include "pmcprofile/session.h"

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
  EXPECT_EQ(syms[4].module, "ext4");
  EXPECT_EQ(syms[4].address, 0xffffffffc0001000u);
  EXPECT_EQ(syms[0].module, "");
}

// Where a symbol's code may end, from the symbols after it: the next of its own part, else
// the end of the page after its own (perf's rule for a last symbol); `_etext` ends at once.
TEST_F(KallsymsFile, SymbolsEndAtTheirPartsNextOrAPageOn) {
  write("ffffffff81000100 T a\n"
        "ffffffff81000200 T b\n"
        "ffffffff81003000 T _etext\n"
        "ffffffffc0001000 t m1\t[mod_one]\n"
        "ffffffffc0001800 t m2\t[mod_two]\n"
        "ffffffffc0009000 t m3\t[mod_two]\n"
        "fffffffffffff800 t top\t[mod_two]\n");
  const auto syms = pmcprofile::read_kernel_code_symbols(path_);
  ASSERT_EQ(syms.size(), 7u);
  EXPECT_EQ(pmcprofile::kernel_symbol_end(syms, 0), 0xffffffff81000200u);  // b
  EXPECT_EQ(pmcprofile::kernel_symbol_end(syms, 1), 0xffffffff81003000u);  // _etext
  EXPECT_EQ(pmcprofile::kernel_symbol_end(syms, 2), 0xffffffff81003000u);  // itself
  EXPECT_EQ(pmcprofile::kernel_symbol_end(syms, 3), 0xffffffffc0001800u);  // m2 comes first
  EXPECT_EQ(pmcprofile::kernel_symbol_end(syms, 4), 0xffffffffc0009000u);  // m3, its module
  EXPECT_EQ(pmcprofile::kernel_symbol_end(syms, 5), 0xfffffffffffff800u);
  EXPECT_EQ(pmcprofile::kernel_symbol_end(syms, 6), UINT64_MAX);  // the page after: none
}

// Addresses of either case are read in place; a line whose 16 characters are not all hex
// digits is read the slow way, which stops at the first that is not one (so a bad digit is
// never read as a digit).
TEST_F(KallsymsFile, EveryAddressCharacterIsCheckedAsAHexDigit) {
  const std::string good = "FFFFffff8100a1b0";
  std::string text = good + " T upper_and_lower\n";
  std::vector<uint64_t> want = {0xffffffff8100a1b0u};
  for (size_t at = 1; at < 16; ++at)
    // Each neighbour of a range, and bytes that become a digit or a letter with 0x20 added
    // (letters are checked in lower case), or that are negative as signed chars.
    for (const char bad : {'g', 'G', ':', '/', '@', '`', 'z', '\x10', '\x19', '\xc1', '\xe6'}) {
      std::string a = good;
      a[at] = bad;
      text += a + " T x\n";
      want.push_back(std::stoull(good.substr(0, at), nullptr, 16));
    }
  write(text);
  const auto syms = pmcprofile::read_kernel_code_symbols(path_);
  ASSERT_EQ(syms.size(), want.size());
  std::sort(want.begin(), want.end());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(syms[i].address, want[i]) << i;
}

// A saved copy is read once per process however many sessions name frames from it, on any
// thread; /proc/kallsyms and other copies are read on their own.
TEST_F(KallsymsFile, EachSavedCopyIsReadOncePerProcess) {
  write("ffffffff81000000 T _text\nffffffff81000100 T saved_function\n");
  const uint64_t before = pmcprofile::kallsyms_reads();
  const auto first = pmcprofile::shared_kernel_code_symbols(path_);
  EXPECT_EQ(pmcprofile::shared_kernel_text_start(path_), 0xffffffff81000000u);
  const uint64_t once = pmcprofile::kallsyms_reads();
  EXPECT_EQ(once, before + 2);  // the symbols, and the text start
  std::shared_ptr<const pmcprofile::KernelSymbols> a, b;
  std::thread ta([&] { a = pmcprofile::shared_kernel_code_symbols(path_); });
  std::thread tb([&] { b = pmcprofile::shared_kernel_code_symbols(path_); });
  ta.join();
  tb.join();
  EXPECT_EQ(a, first);
  EXPECT_EQ(b, first);
  EXPECT_TRUE(pmcprofile::kallsyms_describes(path_, 0xffffffff81000000u));
  EXPECT_FALSE(pmcprofile::kallsyms_describes(path_, 0xffffffff82000000u));
  EXPECT_EQ(pmcprofile::kallsyms_reads(), once);
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ((*first)[1].name, "saved_function");

  const std::string other = dir_.file("other_copy.txt");
  pmclog_test::write_file(other, "ffffffff91000000 T _text\nffffffff91000100 T other_one\n");
  const auto second = pmcprofile::shared_kernel_code_symbols(other);
  ASSERT_EQ(second->size(), 2u);
  EXPECT_EQ((*second)[1].name, "other_one");
  EXPECT_EQ(pmcprofile::shared_kernel_code_symbols(path_), first);
}

// 19.4 MB of text: mapped (a regular file), parsed in pieces as it is read when streamed (a
// line cut at every piece's end), and, when it cannot be streamed (a reservation smaller than
// the file), read the plain way into a buffer that grows past its first 16 MiB. Every way,
// every symbol keeps its name: none lost at a boundary, none pointing at old text.
TEST_F(KallsymsFile, ALargeFileIsReadWholeInPiecesOrPlainly) {
  constexpr size_t kLines = 450'000;  // 43 bytes each: 19.4 MB
  std::string text;
  text.reserve(kLines * 43);
  char line[64];
  for (size_t i = 0; i < kLines; ++i) {
    std::snprintf(line, sizeof line, "ffffffff81%06zx t function_number_%07zu\n", i * 16, i);
    text += line;
  }
  ASSERT_GT(text.size(), size_t{17} << 20);
  write(text);
  using pmcprofile::KallsymsReading;
  for (const size_t reserve : {size_t{0}, pmcprofile::kKallsymsReserve, size_t{1} << 20}) {
    const auto syms = reserve == 0 ? pmcprofile::read_kernel_code_symbols(path_)
                                   : pmcprofile::read_kernel_code_symbols(
                                         path_, reserve, KallsymsReading::streamed);
    ASSERT_EQ(syms.size(), kLines) << reserve;
    for (const size_t i : {size_t{0}, size_t{390'000}, size_t{390'001}, kLines - 1}) {
      std::snprintf(line, sizeof line, "function_number_%07zu", i);
      EXPECT_EQ(syms[i].name, line) << i;
      EXPECT_EQ(syms[i].address, 0xffffffff81000000u + i * 16) << i;
    }
    size_t in_order = 0;  // and all of them, in order
    for (size_t i = 0; i < syms.size(); ++i)
      in_order += syms[i].address == 0xffffffff81000000u + i * 16 && syms[i].name.size() == 23;
    EXPECT_EQ(in_order, kLines) << reserve;
  }
}

// Text read on a thread of its own and parsed as it comes: a last line without its newline
// still counts, and a file larger than the address space set aside for it is read again the
// plain way, with the same answer.
TEST_F(KallsymsFile, LastLineWithoutNewlineAndFilesPastTheirReservation) {
  using pmcprofile::KallsymsReading;
  write("ffffffff81000100 t first\nffffffff81000200 T last");
  auto syms = pmcprofile::read_kernel_code_symbols(path_);
  ASSERT_EQ(syms.size(), 2u);
  EXPECT_EQ(syms[1].name, "last");
  syms = pmcprofile::read_kernel_code_symbols(path_, pmcprofile::kKallsymsReserve,
                                              KallsymsReading::streamed);
  ASSERT_EQ(syms.size(), 2u);
  EXPECT_EQ(syms[1].name, "last");

  std::string text;
  char line[64];
  for (size_t i = 0; i < 1000; ++i) {
    std::snprintf(line, sizeof line, "ffffffff81%06zx t f%04zu\n", (999 - i) * 16, i);
    text += line;
  }
  write(text);  // 30,000 bytes, in reverse address order
  for (const size_t reserve :
       {size_t{0}, size_t{4096}, text.size(), pmcprofile::kKallsymsReserve}) {
    syms = reserve == 0 ? pmcprofile::read_kernel_code_symbols(path_)  // mapped
                        : pmcprofile::read_kernel_code_symbols(path_, reserve,
                                                               KallsymsReading::streamed);
    ASSERT_EQ(syms.size(), 1000u) << reserve;
    EXPECT_EQ(syms[0].name, "f0999") << reserve;
    EXPECT_EQ(syms[0].address, 0xffffffff81000000u) << reserve;
    EXPECT_EQ(syms[999].name, "f0000") << reserve;
  }
}

// Each symbol keeps 16 bits of name length: a longer name is no kernel's (KSYM_NAME_LEN is
// 512), and its line is left out, the lines around it kept.
TEST_F(KallsymsFile, ANameLongerThan64KiBIsLeftOut) {
  write("ffffffff81000100 t before\nffffffff81000200 t " + std::string(70'000, 'x') +
        "\nffffffff81000300 t after\tmod\n");
  const auto syms = pmcprofile::read_kernel_code_symbols(path_);
  ASSERT_EQ(syms.size(), 2u);
  EXPECT_EQ(syms[0].name, "before");
  EXPECT_EQ(syms[1].name, "after\tmod");  // no "[...]": not a module
  EXPECT_EQ(syms[1].address, 0xffffffff81000300u);
}

TEST_F(KallsymsFile, TextStartPrefersTextOverStext) {
  write("ffffffff81000040 T _stext\nffffffff81000000 T _text\n");
  EXPECT_EQ(pmcprofile::kernel_text_start(path_), 0xffffffff81000000u);
  write("0000000000000000 A fixed_percpu_data\nffffffff81000040 T _stext\n");
  EXPECT_EQ(pmcprofile::kernel_text_start(path_), 0xffffffff81000040u);
  write("0000000000000000 T _text\n");  // kptr_restrict: hidden addresses read as 0
  EXPECT_EQ(pmcprofile::kernel_text_start(path_), 0u);
}

// A Linux log (pmclog-record's "[kernel.kallsyms]" mapping at `text`) whose one sample is in
// user or kernel mode (at `kernel_pc`, text + 0x100 when 0): /proc/kallsyms is read only for
// the kernel one.
std::string linux_log(const pmclog_test::ScratchDir& dir, bool kernel_sample,
                      uint64_t text = 0xffffffff81000000u, uint64_t kernel_pc = 0) {
  using pmclog::Field;
  using pmclog::Kind;
  const auto abi = pmclog::Abi::make(pmclog::Generation::M10, 8, pmclog::ByteOrder::little);
  std::vector<uint8_t> bytes;
  if (kernel_pc == 0) kernel_pc = text + 0x100;
  auto put = [&](Kind k, std::initializer_list<std::pair<Field, uint64_t>> fields,
                 std::string text_field, std::vector<uint64_t> pcs = {}) {
    pmclog::RecordValue r;
    r.kind = k;
    for (const auto& f : fields) r[f.first] = f.second;
    r.text = std::move(text_field);
    r.pcs = std::move(pcs);
    EXPECT_TRUE(pmclog::encode(r, abi, bytes).ok());
  };
  put(Kind::initialize, {{Field::tsc_freq, 1000}}, "");
  put(Kind::pmcallocatedyn, {{Field::pmcid, 1}, {Field::event, 0x20000}}, "cpu-clock");
  put(Kind::map_in, {{Field::pid, pmclog::kKernelPid}, {Field::start, text}}, "[kernel.kallsyms]");
  if (kernel_sample)
    put(Kind::callchain, {{Field::pid, 5}, {Field::tid, 5}, {Field::pmcid, 1}, {Field::cpuflags, 0}},
        "", {kernel_pc});
  else
    put(Kind::callchain, {{Field::pid, 5}, {Field::tid, 5}, {Field::pmcid, 1}, {Field::cpuflags, 1}},
        "", {0x401000});
  const std::string path = dir.file(kernel_sample ? "kernel.pmclog" : "user.pmclog");
  pmclog_test::write_file(path, bytes);
  return path;
}

TEST(Kallsyms, ReadOnlyForKernelFramesToName) {
  pmclog_test::ScratchDir dir;
  const uint64_t before = pmcprofile::kallsyms_reads();
  {
    pmcprofile::Session s(pmcprofile::Options{});
    ASSERT_TRUE(s.add_log(linux_log(dir, false)).error.empty());
    s.symbolize();
    EXPECT_EQ(s.profiles()[0].event_samples.at(0), 1u);
  }
  EXPECT_EQ(pmcprofile::kallsyms_reads(), before) << "a user-mode sample read /proc/kallsyms";
  {
    // A kernel-mode sample that --user-only leaves out names no kernel frame either.
    pmcprofile::Options user_only;
    user_only.filter.mode = pmcprofile::Filter::Mode::user;
    pmcprofile::Session s(user_only);
    ASSERT_TRUE(s.add_log(linux_log(dir, true)).error.empty());
    s.symbolize();
  }
  EXPECT_EQ(pmcprofile::kallsyms_reads(), before) << "--user-only read /proc/kallsyms";
  pmcprofile::Session s(pmcprofile::Options{});
  ASSERT_TRUE(s.add_log(linux_log(dir, true)).error.empty());
  s.symbolize();
  // The replay started the reading at the kernel frame; symbolize() took that result (one
  // read of the symbols, one of the text start to check the boot), not a second one; none
  // when an earlier test of this process read them.
  EXPECT_LE(pmcprofile::kallsyms_reads(), before + 2);
}

// The kernel frame's name from a session of its own.
std::string kernel_function(const std::string& log) {
  pmcprofile::Session s(pmcprofile::Options{});
  if (!s.add_log(log).error.empty()) return "(add_log failed)";
  s.symbolize();
  for (const pmcprofile::Function& f : s.tables().functions)
    if (f.kernel) return f.name;
  return "(no kernel function)";
}

TEST(Kallsyms, OneReadingServesEverySessionOfTheProcess) {
  const uint64_t text = pmcprofile::kernel_text_start();
  const pmcprofile::KernelSymbols syms =
      pmcprofile::read_kernel_code_symbols(pmcprofile::kKallsymsPath);
  if (text == 0 || syms.empty()) GTEST_SKIP() << "/proc/kallsyms hides its addresses here";
  // A symbol of the kernel's own text alone at its address: the name to expect is certain.
  std::optional<pmcprofile::KernelSymbol> want;
  for (size_t i = 1; i + 1 < syms.size() && !want; ++i)
    if (syms[i].address > text && syms[i - 1].address < syms[i].address &&
        syms[i].address < syms[i + 1].address)
      want = syms[i];
  ASSERT_TRUE(want.has_value());
  pmclog_test::ScratchDir dir;
  const std::string log = linux_log(dir, true, text, want->address);

  const uint64_t before = pmcprofile::kallsyms_reads();
  EXPECT_EQ(kernel_function(log), want->name);
  const uint64_t after_first = pmcprofile::kallsyms_reads();
  EXPECT_LE(after_first, before + 2);
  // Two more sessions at once, on threads of their own: both name the frame from the first
  // one's reading.
  std::string a, b;
  std::thread ta([&] { a = kernel_function(log); });
  std::thread tb([&] { b = kernel_function(log); });
  ta.join();
  tb.join();
  EXPECT_EQ(a, want->name);
  EXPECT_EQ(b, want->name);
  EXPECT_EQ(pmcprofile::kallsyms_reads(), after_first) << "a session read /proc/kallsyms again";
}

TEST(Kallsyms, MissingFileIsEmpty) {
  EXPECT_TRUE(pmcprofile::read_kernel_code_symbols("/nonexistent/kallsyms").empty());
  EXPECT_EQ(pmcprofile::kernel_text_start("/nonexistent/kallsyms"), 0u);
}

}  // namespace
