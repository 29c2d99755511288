// pmclog-write synth writes only event codes that FreeBSD's reader of the same era names for
// the INITIALIZE cputype it writes (format.md §12.1: libpmc stops at the first PMCALLOCATE it
// cannot name, and the rest of the log is lost to pmcstat). The codes and the cputype are
// taken from synth's output, for every generation, width, byte order and --events count, and
// checked against the library's event table, so nothing here repeats synth's own list.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "pmclog/detect.h"
#include "pmclog/event_names.h"
#include "pmclog/names.h"
#include "pmclog/reader.h"
#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

struct Allocations {
  uint32_t cputype = 0;
  bool have_init = false;
  std::string cpuid;
  std::vector<std::pair<uint32_t, uint32_t>> hardware;  // (event code, pmc id) of PMCALLOCATE
  std::map<uint32_t, std::string> soft;                  // PMCALLOCATEDYN: code -> name
  std::vector<uint32_t> soft_ids;
};

Allocations allocations_of(const std::vector<uint8_t>& bytes, Generation g) {
  Allocations a;
  auto det = detect_abi(bytes);
  EXPECT_TRUE(det.ok()) << (det.ok() ? "" : det.error().message);
  if (!det.ok()) return a;
  Abi abi = det->abi;
  abi.generation = g;  // L2 is read as L3 without a PMCALLOCATEDYN (format.md §2.2); same layouts
  LogReader reader = LogReader::over(bytes, abi);
  Record r;
  Error err;
  for (Step s; (s = reader.next(r, err)) != Step::end;) {
    EXPECT_EQ(s, Step::record) << err.message;
    if (s != Step::record) break;
    if (r.kind == Kind::initialize) {
      a.have_init = true;
      a.cputype = static_cast<uint32_t>(r[Field::arch]);
      if (r.has(Field::cpuid)) a.cpuid = std::string(r.text);
    } else if (r.kind == Kind::pmcallocate) {
      a.hardware.emplace_back(static_cast<uint32_t>(r[Field::event]),
                              static_cast<uint32_t>(r[Field::pmcid]));
    } else if (r.kind == Kind::pmcallocatedyn) {
      a.soft[static_cast<uint32_t>(r[Field::event])] = std::string(r.text);
      a.soft_ids.push_back(static_cast<uint32_t>(r[Field::pmcid]));
    }
  }
  return a;
}

TEST(SynthEvents, EveryAllocatedCodeIsNamedByTheErasLibpmcForTheCputype) {
  ScratchDir d;
  const std::pair<const char*, Generation> gens[] = {{"L1", Generation::L1}, {"L2", Generation::L2},
                                                     {"L3", Generation::L3}, {"M9", Generation::M9},
                                                     {"M10", Generation::M10}};
  std::set<std::tuple<std::string, uint32_t, uint32_t>> checked;  // generation, cputype, code
  for (auto [gen, g] : gens) {
    for (int width : {32, 64}) {
      for (const char* order : {"little", "big"}) {
        for (int events = 1; events <= 8; ++events) {
          const std::string args = std::string("--generation ") + gen + " --address-width " +
                                   std::to_string(width / 8) + " --byte-order " + order + " --events " + std::to_string(events) +
                                   " --cpus 2 --processes 2 -n 120 --seed 9";
          SCOPED_TRACE(args);
          const fs::path out = d / "e.pmclog";
          const Ran r = run(concat({{write_bin(), "synth", "-q"}, words(args), {"-o", out}}));
          ASSERT_EQ(r.status, 0) << r.err;
          const Allocations a = allocations_of(slurp_bytes(out), g);
          ASSERT_TRUE(a.have_init);
          ASSERT_EQ(a.hardware.size() + a.soft_ids.size(), 2u * events) << "one per CPU and event";
          for (auto [code, id] : a.hardware) {
            const auto name = event_name(code, a.cputype, g, &a.soft);
            EXPECT_TRUE(name.has_value())
                << "event 0x" << std::hex << code << " is unknown to libpmc of " << gen
                << " for cputype 0x" << a.cputype << " (" << cputype_name(a.cputype, g) << ")";
            // libpmc's own dynamic names aside, a hardware PMC is not of the SOFT class.
            EXPECT_FALSE(is_soft_event(code)) << std::hex << code;
            checked.emplace(gen, a.cputype, code);
          }
          for (const auto& [code, name] : a.soft) {
            EXPECT_TRUE(is_soft_event(code)) << std::hex << code;
            EXPECT_FALSE(name.empty()) << "a soft event is named by its PMCALLOCATEDYN";
          }
          // The cpuid names the same vendor as the cputype (format.md §8, §9.4).
          const std::string_view cpu = cputype_name(a.cputype, g);
          if (cpu.rfind("AMD_", 0) == 0) {
            EXPECT_EQ(a.cpuid.find("GenuineIntel"), std::string::npos) << a.cpuid;
          }
          if (cpu.rfind("INTEL_", 0) == 0) {
            EXPECT_EQ(a.cpuid.find("AuthenticAMD"), std::string::npos) << a.cpuid;
          }
        }
      }
    }
  }
  // Every generation was seen with some hardware event.
  std::set<std::string> gens_seen;
  for (const auto& [gen, cpu, code] : checked) gens_seen.insert(gen);
  EXPECT_EQ(gens_seen.size(), 5u);
}

}  // namespace
}  // namespace pmclog::write_test
