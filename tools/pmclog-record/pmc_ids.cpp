#include "pmc_ids.h"

#include "pmclog/names.h"

namespace record {

uint32_t make_pmcid(pmclog::Generation g, int cpu, uint32_t mode, uint32_t klass, uint32_t row) {
  switch (pmclog::pmcid_layout(g)) {
    case pmclog::PmcIdLayout::legacy: {
      uint32_t c = cpu < 0 ? 0xFFu : static_cast<uint32_t>(cpu) & 0xFFu;
      return c << 24 | (mode & 0xFF) << 16 | (klass & 0xFF) << 8 | (row & 0xFF);
    }
    case pmclog::PmcIdLayout::ii: {
      uint32_t c = cpu < 0 ? 0xFFFu : static_cast<uint32_t>(cpu) & 0xFFFu;
      return c << 20 | (mode & 0xFF) << 12 | (klass & 0xF) << 8 | (row & 0xFF);
    }
    case pmclog::PmcIdLayout::iii: {
      uint32_t c = cpu < 0 ? 0xFFFu : static_cast<uint32_t>(cpu) & 0xFFFu;
      return c << 20 | (mode & 0xF) << 16 | (klass & 0xFF) << 8 | (row & 0xFF);
    }
  }
  return kPmcIdInvalid;
}

uint32_t pmc_version(pmclog::Generation g) {
  switch (g) {
    case pmclog::Generation::L1: return 0x01020003;
    case pmclog::Generation::L2:
    case pmclog::Generation::L3: return 0x03010000;
    case pmclog::Generation::M9: return 0x09030000;
    case pmclog::Generation::M10: return 0x0A000000;
  }
  return 0x03010000;
}

}  // namespace record
