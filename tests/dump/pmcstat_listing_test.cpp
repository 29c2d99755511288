// --format=pmcstat on the codec's fixtures of every generation x width x byte order: each
// expected line is rendered here from the fixture's independent listing (NAME.expected.txt)
// with the formats of format.md §13, and must equal the tool's line.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "listing.h"
#include "pmclog/abi.h"
#include "pmclog/names.h"
#include "run_tool.h"

using namespace dumptest;
namespace fs = std::filesystem;

namespace {

std::string f(const char* fmt, auto... args) {
  char b[2048];
  std::snprintf(b, sizeof b, fmt, args...);
  return b;
}

struct Renderer {
  pmclog::Generation g;
  bool big_endian;
  uint32_t cputype = 0;

  std::string kw(const char* k) const { return f(g == pmclog::Generation::L1 ? "%-8s " : "%-9s ", k); }
  static int32_t i32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }
  static unsigned u32(uint64_t v) { return static_cast<unsigned>(v); }
  static unsigned long long u64(uint64_t v) { return v; }
  static long long i64(uint64_t v) { return static_cast<long long>(v); }

  // Event names of format.md §12.1 / pmc_events.h for the three codes the fixtures use.
  std::string event_name(uint64_t code) const {
    if (code == 0x1000) return g == pmclog::Generation::M10 ? "cycles" : "TSC";
    // The Intel fixed-function class came after L1's 6.x/7.0 tables: the dump has no name
    // for it there and prints its documented placeholder (format_pmcstat.cpp).
    if (code == 0x10000) return g == pmclog::Generation::L1 ? "EVENT_0x10000" : "INSTR_RETIRED_ANY";
    // AMD K8 BU_CPU_CLK_UNHALTED, the modern fixtures' code (named so in the golden stable/12 log).
    if (code == 0x2098) return "BU_CPU_CLK_UNHALTED";
    return "?";
  }

  // libpmc of M reads PMCALLOCATEDYN's name from byte 32: the rate's bytes (EMIT64: low word
  // first, each word in file byte order), then the name from byte 40 (format.md §11, §12.1).
  std::string modern_dyn_name(uint64_t rate, const std::string& name) const {
    std::string bytes;
    for (uint32_t word : {static_cast<uint32_t>(rate), static_cast<uint32_t>(rate >> 32)}) {
      for (int i = 0; i < 4; ++i) {
        const int shift = big_endian ? 24 - 8 * i : 8 * i;
        bytes += static_cast<char>((word >> shift) & 0xFF);
      }
    }
    const size_t nul = bytes.find('\0');
    return nul == std::string::npos ? bytes + name : bytes.substr(0, nul);
  }

  std::string render(const ListedRecord& r) {
    auto n = [&](const char* k) { return r.fields.at(k).number; };
    auto s = [&](const char* k) { return r.fields.at(k).text; };
    const std::string& t = r.type;
    const bool modern = g == pmclog::Generation::M9 || g == pmclog::Generation::M10;
    if (t == "INITIALIZE") {
      cputype = u32(n("arch"));
      const auto name = pmclog::cputype_name(cputype, g);
      return kw("initlog") + f("0x%x \"%s\"\n", u32(n("version")), name.empty() ? "(null)" : std::string(name).c_str());
    }
    if (t == "CALLCHAIN") {
      std::string out = kw("callchain") + f("%d 0x%x %d %d %c\n", i32(n("pid")), u32(n("pmcid")),
                                             static_cast<int>(n("cpu")), static_cast<int>(n("npc")),
                                             n("usermode") ? 'u' : 's');
      for (uint64_t pc : r.fields.at("pc").list) out += kw("...") + f("0x%llx\n", u64(pc));
      return out;
    }
    if (t == "CLOSELOG") return kw("closelog") + "\n";
    if (t == "DROPNOTIFY") return kw("drop") + "\n";
    if (t == "MAPPINGCHANGE")
      return kw("mapping") + f("%s %d 0x%llx 0x%llx \"%s\"\n", n("maptype") == 1 ? "insert" : "delete",
                               i32(n("pid")), u64(n("start")), u64(n("end")), s("path").c_str());
    if (t == "MAP_IN") return kw("map-in") + f("%d 0x%llx \"%s\"\n", i32(n("pid")), u64(n("start")), s("path").c_str());
    if (t == "MAP_OUT") return kw("map-out") + f("%d 0x%llx 0x%llx\n", i32(n("pid")), u64(n("start")), u64(n("end")));
    if (t == "PCSAMPLE")
      return kw("sample") + f("0x%x %d 0x%llx %c\n", u32(n("pmcid")), i32(n("pid")), u64(n("pc")), n("usermode") ? 'u' : 's');
    if (t == "PMCALLOCATE")
      return kw("allocate") + f("0x%x \"%s\" 0x%x\n", u32(n("pmcid")), event_name(n("event")).c_str(), u32(n("flags")));
    if (t == "PMCALLOCATEDYN") {
      const std::string name = modern ? modern_dyn_name(n("rate"), s("evname")) : s("evname");
      return kw("allocatedyn") + f("0x%x \"%s\" 0x%x\n", u32(n("pmcid")), name.c_str(), u32(n("flags")));
    }
    if (t == "PMCATTACH") return kw("attach") + f("0x%x %d \"%s\"\n", u32(n("pmcid")), i32(n("pid")), s("path").c_str());
    if (t == "PMCDETACH") return kw("detach") + f("0x%x %d\n", u32(n("pmcid")), i32(n("pid")));
    if (t == "PROCCSW") return kw("cswval") + f("0x%x %d %lld\n", u32(n("pmcid")), i32(n("pid")), i64(n("value")));
    if (t == "PROCEXIT") return kw("exitval") + f("0x%x %d %lld\n", u32(n("pmcid")), i32(n("pid")), i64(n("value")));
    if (t == "PROCEXEC") {
      if (g == pmclog::Generation::M10)
        return kw("exec") + f("0x%x %d 0x%llx 0x%llx \"%s\"\n", u32(n("pmcid")), i32(n("pid")),
                              u64(n("entryaddr")), u64(n("dynaddr")), s("path").c_str());
      return kw("exec") + f("0x%x %d 0x%llx \"%s\"\n", u32(n("pmcid")), i32(n("pid")), u64(n("entryaddr")), s("path").c_str());
    }
    if (t == "PROCFORK") return kw("fork") + f("%d %d\n", i32(n("oldpid")), i32(n("newpid")));
    if (t == "SYSEXIT") return kw("exit") + f("%d\n", i32(n("pid")));
    if (t == "USERDATA") return kw("userdata") + f("0x%x\n", u32(n("userdata")));
    if (g == pmclog::Generation::M10) {
      if (t == "PROC_CREATE") return f("%-9s %d %x \"%s\"\n", "create", i32(n("pid")), u32(n("flags")), s("pcomm").c_str());
      if (t == "THR_CREATE")
        return f("%-9s %d %d %x \"%s\"\n", "thr-create", i32(n("tid")), i32(n("pid")), u32(n("flags")), s("tdname").c_str());
      if (t == "THR_EXIT") return f("%-9s %d\n", "thr-exit", i32(n("tid")));
    }
    return f("unknown event (type %d).\n", r.code);
  }
};

}  // namespace

TEST(PmcstatListing, EveryGenerationWidthAndByteOrder) {
  int checked = 0;
  for (const char* gen : {"L1", "L2", "L3", "M9", "M10"}) {
    for (const char* abi : {"32-le", "32-be", "64-le", "64-be"}) {
      const std::string base = fixture(std::string(gen) + "-" + abi);
      if (!fs::exists(base + ".pmclog") || !fs::exists(base + ".expected.txt")) continue;
      SCOPED_TRACE(base);
      Renderer rr{*pmclog::parse_generation(gen), std::string(abi).find("be") != std::string::npos};
      std::string want;
      for (const auto& rec : read_listing(base + ".expected.txt")) {
        // the modern libpmc returns EOF at CLOSELOG (format.md §12)
        if (rec.type == "CLOSELOG" && (rr.g == pmclog::Generation::M9 || rr.g == pmclog::Generation::M10)) break;
        want += rr.render(rec);
      }
      const Ran r = run_dump({"--format=pmcstat", base + ".pmclog"});
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, want);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 20);
}
