// The DWARF unwinder on stacks this test captures itself, as the kernel would for a sample
// (registers and a copy of the stack from SP up), through code built without frame pointers.
#include "dwarf_unwinder.h"
#include "proc_info.h"

#include <elfutils/libdwfl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/process.h"
#include "unwind/chain.h"

namespace {

using record::DwarfUnwinder;
using record::UnwindStop;

// This process's executable mappings, as PERF_RECORD_MMAP2 would announce them, and the end
// of the mapping that holds `sp` (the stack's top).
uint64_t feed_maps(DwarfUnwinder& u, uint32_t pid, uint64_t sp) {
  uint64_t top = 0;
  for (const record::ProcMapping& m : record::read_proc_maps(getpid())) {
    if (sp >= m.start && sp < m.end) top = m.end;
    if (m.exec) u.map(pid, m.start, m.end, m.offset, m.path);
  }
  return top;
}

// The function holding pc, by its symbol (mangled), from this process's own objects.
class SelfSymbols {
 public:
  SelfSymbols() {
    static char* path = nullptr;
    static const Dwfl_Callbacks cb = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo,
                                      nullptr, &path};
    dwfl_ = dwfl_begin(&cb);
    dwfl_linux_proc_report(dwfl_, getpid());
    dwfl_report_end(dwfl_, nullptr, nullptr);
  }
  ~SelfSymbols() { dwfl_end(dwfl_); }
  std::string name(uint64_t pc) {
    Dwfl_Module* m = dwfl_addrmodule(dwfl_, pc);
    const char* n = m ? dwfl_module_addrname(m, pc) : nullptr;
    return n ? n : "?";
  }

 private:
  Dwfl* dwfl_;
};

// The sample's registers as the kernel lays them out: the mask's registers in bit order.
record::UserRegisters registers_of(const unwind_chain::Captured& c) {
  std::vector<uint64_t> words;
  const uint64_t mask = record::unwind_register_mask();
  for (int bit = 0; bit < 24; ++bit)
    if (mask >> bit & 1) words.push_back(c.regs[bit]);
  return record::user_registers(2, words);
}

__attribute__((noinline)) void capture_outer(unwind_chain::Captured& c, DwarfUnwinder& u,
                                             uint32_t pid) {
  asm volatile("" ::: "memory");
  // The stack's top is known before the capture (the mapping holding a local).
  int here = 0;
  c.stack_top = feed_maps(u, pid, reinterpret_cast<uintptr_t>(&here));
  unwind_chain::outer(c);
  asm volatile("" ::: "memory");
}

TEST(DwarfUnwinder, KnownPathWithoutFramePointers) {
  if (!DwarfUnwinder::available()) GTEST_SKIP() << "x86-64 only";
  auto c = std::make_unique<unwind_chain::Captured>();
  DwarfUnwinder u;
  capture_outer(*c, u, 1);
  ASSERT_GT(c->size, 64u);
  std::vector<uint64_t> pcs;
  const UnwindStop stop =
      u.unwind(1, 1, registers_of(*c), {c->stack, c->size}, 64, pcs);
  SelfSymbols sym;
  ASSERT_GE(pcs.size(), 5u) << record::unwind_stop_name(stop);
  EXPECT_EQ(sym.name(pcs[0]), "unwind_capture");
  // Return addresses: the call is the byte before.
  EXPECT_NE(sym.name(pcs[1] - 1).find("4leaf"), std::string::npos) << sym.name(pcs[1] - 1);
  EXPECT_NE(sym.name(pcs[2] - 1).find("6middle"), std::string::npos) << sym.name(pcs[2] - 1);
  EXPECT_NE(sym.name(pcs[3] - 1).find("5outer"), std::string::npos) << sym.name(pcs[3] - 1);
  EXPECT_NE(sym.name(pcs[4] - 1).find("capture_outer"), std::string::npos) << sym.name(pcs[4] - 1);
  // The whole stack was copied (up to 32 KiB of a gtest main thread's): the walk reaches
  // the outermost frame, or the copy's end.
  EXPECT_TRUE(stop == UnwindStop::complete || stop == UnwindStop::stack_too_small)
      << record::unwind_stop_name(stop);
  if (c->size < sizeof c->stack) {
    EXPECT_EQ(stop, UnwindStop::complete);
  }
}

TEST(DwarfUnwinder, StopsAtTheDepthLimit) {
  if (!DwarfUnwinder::available()) GTEST_SKIP() << "x86-64 only";
  auto c = std::make_unique<unwind_chain::Captured>();
  DwarfUnwinder u;
  capture_outer(*c, u, 1);
  std::vector<uint64_t> pcs;
  EXPECT_EQ(u.unwind(1, 1, registers_of(*c), {c->stack, c->size}, 3, pcs), UnwindStop::depth_limit);
  EXPECT_EQ(pcs.size(), 3u);
}

TEST(DwarfUnwinder, AShortStackCopyIsSaidSo) {
  if (!DwarfUnwinder::available()) GTEST_SKIP() << "x86-64 only";
  auto c = std::make_unique<unwind_chain::Captured>();
  DwarfUnwinder u;
  capture_outer(*c, u, 1);
  std::vector<uint64_t> pcs;
  // 8 bytes: the first return address only; the next frame's CFA lies beyond.
  const UnwindStop stop = u.unwind(1, 1, registers_of(*c), {c->stack, 8}, 64, pcs);
  EXPECT_EQ(stop, UnwindStop::stack_too_small);
  EXPECT_GE(pcs.size(), 1u);
  EXPECT_LE(pcs.size(), 3u);
}

// A stack captured through code built without CFI, unwound by a fresh unwinder.
UnwindStop unwind_through_no_cfi(std::vector<uint64_t>& pcs) {
  auto c = std::make_unique<unwind_chain::Captured>();
  DwarfUnwinder u;
  int here = 0;
  c->stack_top = feed_maps(u, 1, reinterpret_cast<uintptr_t>(&here));
  unwind_chain::through_no_cfi(*c);
  return u.unwind(1, 1, registers_of(*c), {c->stack, c->size}, 64, pcs);
}

TEST(DwarfUnwinder, CodeWithoutCfiEndsTheChainThere) {
  if (!DwarfUnwinder::available()) GTEST_SKIP() << "x86-64 only";
  std::vector<uint64_t> pcs;
  const UnwindStop stop = unwind_through_no_cfi(pcs);
  SelfSymbols sym;
  EXPECT_EQ(stop, UnwindStop::no_cfi) << record::unwind_stop_name(stop);
  ASSERT_EQ(pcs.size(), 3u);  // the capture, its caller, then the code without CFI: no guess
  EXPECT_EQ(sym.name(pcs[2] - 1), "unwind_no_cfi");
}

// Code without CFI makes libdwfl look for the test program's separate debug file, which is
// not there. The recorder searches this machine only: libdwfl's standard search would load a
// debuginfod client (libcurl and some thirty libraries) into it, mid-recording. Run in a
// fresh process (the threadsafe death-test style re-executes this test alone): SelfSymbols
// elsewhere in this program uses the standard search.
TEST(DwarfUnwinder, AMissingDebugFileLoadsNoDebuginfodClient) {
  if (!DwarfUnwinder::available()) GTEST_SKIP() << "x86-64 only";
  const char* servers = std::getenv("DEBUGINFOD_URLS");
  if (servers != nullptr && servers[0] != '\0') GTEST_SKIP() << "DEBUGINFOD_URLS is set";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::vector<uint64_t> pcs;
        const UnwindStop stop = unwind_through_no_cfi(pcs);
        std::exit(stop != UnwindStop::no_cfi ? 2 : pmclog_test::self_maps("libdebuginfod") ? 1 : 0);
      },
      testing::ExitedWithCode(0), "");
}

TEST(DwarfUnwinder, NoRegistersNoObjectAndAForgottenProcess) {
  DwarfUnwinder u;
  std::vector<uint64_t> pcs;
  uint8_t stack[64] = {};
  EXPECT_EQ(u.unwind(7, 7, record::UserRegisters{}, stack, 64, pcs), UnwindStop::no_registers);
  EXPECT_TRUE(pcs.empty());
  // Registers that point into nothing known: the sampled address alone, and why.
  std::vector<uint64_t> words(17, 0);
  words[8] = 0x1000;  // IP
  words[7] = 0x2000;  // SP
  const auto regs = record::user_registers(2, words);
  ASSERT_TRUE(regs.valid);
  EXPECT_EQ(u.unwind(7, 7, regs, stack, 64, pcs), UnwindStop::no_object);
  EXPECT_EQ(pcs, std::vector<uint64_t>{0x1000});
  // A mapping whose file cannot be read.
  u.map(7, 0x1000, 0x2000, 0, "/nonexistent/lib.so");
  EXPECT_EQ(u.unwind(7, 7, regs, stack, 64, pcs), UnwindStop::unreadable);
  u.forget(7);
  EXPECT_EQ(u.unwind(7, 7, regs, stack, 64, pcs), UnwindStop::no_object);
  // A 32-bit ABI (or none) is no registers.
  EXPECT_FALSE(record::user_registers(1, words).valid);
  EXPECT_FALSE(record::user_registers(2, {words.data(), 5}).valid);
}

TEST(DwarfUnwinder, AForkedChildUnwindsWithItsParentsMappings) {
  if (!DwarfUnwinder::available()) GTEST_SKIP() << "x86-64 only";
  auto c = std::make_unique<unwind_chain::Captured>();
  DwarfUnwinder u;
  capture_outer(*c, u, 1);
  u.fork(1, 2);
  u.forget(1);
  std::vector<uint64_t> pcs;
  u.unwind(2, 2, registers_of(*c), {c->stack, c->size}, 64, pcs);
  EXPECT_GE(pcs.size(), 5u);
  std::vector<uint64_t> none;
  EXPECT_EQ(u.unwind(1, 1, registers_of(*c), {c->stack, c->size}, 64, none), UnwindStop::no_object);
}

}  // namespace
