// The callchain depth pmclog-record asks of the kernel (callchain_depth.h).
#include <gtest/gtest.h>

#include "callchain_depth.h"

// The depth asked of the kernel: frames only (markers are counted apart), capped by the
// generation, then by kernel.perf_event_max_stack; too few contexts per stack is said.
TEST(RecordDepth, CappedByTheGenerationThenTheKernel) {
  record::KernelStackLimits k;
  k.max_stack = 127;
  k.max_contexts = 8;
  auto c = record::choose_depth(127, 512, "M10", k, 1);
  EXPECT_EQ(c.depth, 127u);
  EXPECT_EQ(c.capped_by, "");
  c = record::choose_depth(400, 512, "M10", k, 2);
  EXPECT_EQ(c.depth, 127u);
  EXPECT_EQ(c.capped_by, "kernel.perf_event_max_stack");
  c = record::choose_depth(100, 32, "L2", k, 1);
  EXPECT_EQ(c.depth, 32u);
  EXPECT_EQ(c.capped_by, "the depth limit of L2 logs");
  EXPECT_EQ(c.note, "");
  k.max_stack = 0;  // not known: not capped by it
  EXPECT_EQ(record::choose_depth(500, 512, "M10", k, 1).depth, 500u);
  k.max_contexts = 1;
  EXPECT_NE(record::choose_depth(32, 512, "M10", k, 2).note.find("no user-space frames"),
            std::string::npos);
  EXPECT_EQ(record::choose_depth(32, 512, "M10", k, 1).note, "");
  k.max_contexts = 0;
  EXPECT_NE(record::choose_depth(32, 512, "M10", k, 1).note.find("no callchain"),
            std::string::npos);
}
