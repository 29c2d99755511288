// The synth hot path's CALLCHAIN writer gives exactly pmclog::encode()'s bytes in every ABI.
#include <gtest/gtest.h>

#include "callchain_writer.h"
#include "pmclog/encode.h"
#include "rng.h"

namespace pmclog::write {
namespace {

TEST(CallchainWriter, SameBytesAsTheLibraryEncoder) {
  Rng rng(42);
  int compared = 0;
  for (Generation g : {Generation::L2, Generation::L3, Generation::M9, Generation::M10})
    for (uint8_t w : {4, 8})
      for (ByteOrder o : {ByteOrder::little, ByteOrder::big}) {
        const Abi abi = Abi::make(g, w, o);
        const CallchainWriter writer(abi);
        for (int i = 0; i < 50; ++i) {
          RecordValue r;
          r.kind = Kind::callchain;
          r.ts_sec = static_cast<uint32_t>(rng.next());
          r.ts_nsec = rng.below(1u << 28);
          r.tsc = rng.next();
          r[Field::pid] = static_cast<uint32_t>(rng.next());
          r[Field::tid] = static_cast<uint32_t>(rng.next());
          r[Field::pmcid] = static_cast<uint32_t>(rng.next());
          r[Field::cpuflags] = static_cast<uint32_t>(rng.next());
          r.pcs.resize(rng.below(abi.callchain_depth_max() + 1));
          for (auto& pc : r.pcs) pc = w == 8 ? rng.next() : static_cast<uint32_t>(rng.next());
          std::vector<uint8_t> want, got{0xAB};  // appends after existing bytes
          ASSERT_TRUE(encode(r, abi, want).ok());
          const uint32_t len = writer.append(r, got);
          EXPECT_EQ(len, want.size());
          EXPECT_EQ(std::vector<uint8_t>(got.begin() + 1, got.end()), want) << describe(abi);
          ++compared;
        }
      }
  EXPECT_EQ(compared, 4 * 2 * 2 * 50);
}

}  // namespace
}  // namespace pmclog::write
