// Conversion of perf records into pmclog records, on synthetic input: context markers,
// the user/kernel flag, depth, exec/fork/exit tracking, lost samples.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/mman.h>

#include <cstring>
#include <functional>

#include "converter_harness.h"
#include "log_sink.h"
#include "merger.h"
#include "perf_records.h"
#include "record_conversion.h"
#include "record_test_support.h"

using pmclog::Field;
using pmclog::Kind;
using record::PerfEvent;

namespace {

constexpr uint64_t kKernel = static_cast<uint64_t>(PERF_CONTEXT_KERNEL);
constexpr uint64_t kUser = static_cast<uint64_t>(PERF_CONTEXT_USER);

record::ConversionConfig sample_config(uint32_t depth,
                                       const std::function<void(record::ConversionConfig&)>& tweak) {
  record::ConversionConfig cc;
  cc.depth = depth;
  cc.pmcid_of_id[42] = 0xfff20f00;
  cc.process_pmcids = {0xfff20f00};
  if (tweak) tweak(cc);
  return cc;
}

struct Harness : rectest::ConverterHarness {
  explicit Harness(uint32_t depth = 8,
                   const std::function<void(record::ConversionConfig&)>& tweak = {})
      : ConverterHarness(sample_config(depth, tweak), "conv.pmclog") {}
  rectest::Log finish() { return ConverterHarness::finish(1000); }
};

PerfEvent sample(std::vector<uint64_t> chain, uint32_t pid = 10, uint64_t t = 100) {
  PerfEvent e;
  e.type = PerfEvent::Type::sample;
  e.id = 42;
  e.pid = e.tid = pid;
  e.time = t;
  e.cpu = 1;
  e.ip = chain.size() > 1 ? chain[1] : 0;
  e.callchain = std::move(chain);
  return e;
}

}  // namespace

TEST(RecordConversion, MarkersBecomeTheUserFlagAndAreStripped) {
  Harness h;
  h.conv->process(sample({kKernel, 0xffffffff81000010, 0xffffffff81000020, kUser, 0x401000}));
  h.conv->process(sample({kUser, 0x401010, 0x401020}));
  auto log = h.finish();
  ASSERT_TRUE(log.ok) << log.error;
  auto cc = log.of(Kind::callchain);
  ASSERT_EQ(cc.size(), 2u);
  // hwpmc writes only the kernel stack of a kernel-mode sample.
  EXPECT_EQ(cc[0]->pcs, (std::vector<uint64_t>{0xffffffff81000010, 0xffffffff81000020}));
  EXPECT_EQ((*cc[0])[Field::cpuflags], 1u << 16) << "kernel leaf: no USERSPACE flag, cpu 1";
  EXPECT_EQ(cc[1]->pcs, (std::vector<uint64_t>{0x401010, 0x401020}));
  EXPECT_EQ((*cc[1])[Field::cpuflags], (1u << 16) | 1u);
  EXPECT_EQ((*cc[1])[Field::pmcid], 0xfff20f00u);
  EXPECT_EQ(h.conv->stats().user_only, 1u);
}

TEST(RecordConversion, UserCallchainAppendsUserFramesToKernelSamples) {
  Harness h(8, [](record::ConversionConfig& c) { c.user_callchain = true; });
  h.conv->process(sample({kKernel, 0xffffffff81000010, 0xffffffff81000020, kUser, 0x401000}));
  h.conv->process(sample({kUser, 0x401010, 0x401020}));
  auto log = h.finish();
  auto cc = log.of(Kind::callchain);
  ASSERT_EQ(cc.size(), 2u);
  // PMC_F_USERCALLCHAIN: the user frames follow in the same record, still flagged kernel.
  EXPECT_EQ(cc[0]->pcs, (std::vector<uint64_t>{0xffffffff81000010, 0xffffffff81000020, 0x401000}));
  EXPECT_EQ((*cc[0])[Field::cpuflags], 1u << 16);
  EXPECT_EQ(cc[1]->pcs, (std::vector<uint64_t>{0x401010, 0x401020})) << "user samples unchanged";
}

namespace {

// An executable mapping of pid 10 at [0x401000, 0x403000).
PerfEvent exec_mapping(uint32_t pid = 10) {
  PerfEvent map;
  map.type = PerfEvent::Type::mmap;
  map.pid = map.tid = pid;
  map.addr = 0x401000;
  map.len = 0x2000;
  map.prot = PROT_READ | PROT_EXEC;
  map.filename = "/bin/prog";
  map.time = 50;
  return map;
}

// The COMM record of an exec by pid (its only thread).
PerfEvent exec_comm(uint32_t pid, const std::string& comm, uint64_t time) {
  PerfEvent e;
  e.type = PerfEvent::Type::comm;
  e.misc = PERF_RECORD_MISC_COMM_EXEC;
  e.pid = e.tid = pid;
  e.comm = comm;
  e.time = time;
  return e;
}

void x86_64_limits(record::ConversionConfig& c) {
  c.user_end = uint64_t{1} << 47;
  c.kernel_start = ~uint64_t{0} << 47;
  c.user_callchain = true;
}

}  // namespace

TEST(RecordConversion, ChainsStopAtTheFirstAddressThatCannotBeCode) {
  Harness h(8, x86_64_limits);
  h.conv->add_child(10, 1);
  h.conv->process(exec_mapping());
  // Non-canonical ("BBBBBBBB" read as a return address): cut there, the rest dropped.
  h.conv->process(sample({kUser, 0x401000, 0x401010, 0x4242424242424242, 0x401020}));
  // Canonical but in no executable mapping of the process.
  h.conv->process(sample({kUser, 0x401000, 0x424242424242, 0x401020}));
  // A user address in the kernel part, and a kernel address in the user part.
  h.conv->process(sample({kKernel, 0xffffffff81000010, 0x401000, kUser, 0x401000}));
  h.conv->process(sample({kUser, 0x401000, 0xffffffff81000010}));
  // Good chains are kept whole, in both parts.
  h.conv->process(sample({kKernel, 0xffffffff81000010, 0xffffffff81000020, kUser, 0x401000,
                          0x402ff0}));
  // The leaf comes from registers, not the stack: kept even where nothing is known.
  h.conv->process(sample({kUser, 0x900000, 0x401000}));
  auto log = h.finish();
  auto cc = log.of(Kind::callchain);
  ASSERT_EQ(cc.size(), 6u);
  EXPECT_EQ(cc[0]->pcs, (std::vector<uint64_t>{0x401000, 0x401010}));
  EXPECT_EQ(cc[1]->pcs, (std::vector<uint64_t>{0x401000}));
  EXPECT_EQ(cc[2]->pcs, (std::vector<uint64_t>{0xffffffff81000010}));
  EXPECT_EQ(cc[3]->pcs, (std::vector<uint64_t>{0x401000}));
  EXPECT_EQ(cc[4]->pcs, (std::vector<uint64_t>{0xffffffff81000010, 0xffffffff81000020, 0x401000,
                                               0x402ff0}));
  EXPECT_EQ(cc[5]->pcs, (std::vector<uint64_t>{0x900000, 0x401000}));
  EXPECT_EQ(h.conv->stats().cut_chains, 4u);
}

// The check remembers the range that last held a frame; an exec clears what was known, so
// a frame in the old image's range is cut again afterwards, and a range inside another
// still answers.
TEST(RecordConversion, RememberedCodeRangeGoesWithTheImage) {
  Harness h(8, x86_64_limits);
  h.conv->add_child(10, 1);
  h.conv->process(exec_mapping());
  PerfEvent lib = exec_mapping();
  lib.addr = 0x500000;
  lib.len = 0x1000;
  lib.filename = "/lib/libx.so";
  h.conv->process(lib);
  // ends in the program's range, which is what the check remembers
  h.conv->process(sample({kUser, 0x401000, 0x500010, 0x401010, 0x500ff0, 0x402000}));
  h.conv->process(exec_comm(10, "other", 70));
  PerfEvent image = exec_mapping();
  image.addr = 0x600000;
  image.filename = "/bin/other";
  image.time = 80;
  h.conv->process(image);
  // 0x402000, in the old image, is the first frame checked after the exec
  h.conv->process(sample({kUser, 0x600000, 0x402000}));
  h.conv->process(sample({kUser, 0x600000, 0x601000}));
  auto log = h.finish();
  auto cc = log.of(Kind::callchain);
  ASSERT_EQ(cc.size(), 3u);
  EXPECT_EQ(cc[0]->pcs, (std::vector<uint64_t>{0x401000, 0x500010, 0x401010, 0x500ff0, 0x402000}));
  EXPECT_EQ(cc[1]->pcs, (std::vector<uint64_t>{0x600000}));
  EXPECT_EQ(cc[2]->pcs, (std::vector<uint64_t>{0x600000, 0x601000}));
  EXPECT_EQ(h.conv->stats().cut_chains, 1u);
}

TEST(RecordConversion, ForkedChildIsCheckedAgainstItsParentsMappings) {
  Harness h(8, x86_64_limits);
  h.conv->add_child(10, 1);
  h.conv->process(exec_mapping());
  PerfEvent fork;
  fork.type = PerfEvent::Type::fork;
  fork.pid = fork.tid = 11;
  fork.ppid = fork.ptid = 10;
  fork.time = 60;
  h.conv->process(fork);
  h.conv->process(sample({kUser, 0x401000, 0x402000, 0x424242424242}, 11));
  // A process the recorder knows no mapping of: only the address range is checked.
  h.conv->process(sample({kUser, 0x401000, 0x424242424242, 0x4242424242424242}, 12));
  auto log = h.finish();
  auto cc = log.of(Kind::callchain);
  ASSERT_EQ(cc.size(), 2u);
  EXPECT_EQ(cc[0]->pcs, (std::vector<uint64_t>{0x401000, 0x402000}));
  EXPECT_EQ(cc[1]->pcs, (std::vector<uint64_t>{0x401000, 0x424242424242}));
  EXPECT_EQ(h.conv->stats().cut_chains, 2u);
}

TEST(RecordConversion, DepthIsCappedAfterStripping) {
  Harness h(3);
  h.conv->process(sample({kUser, 1, 2, 3, 4, 5, 6}));
  auto log = h.finish();
  auto cc = log.of(Kind::callchain);
  ASSERT_EQ(cc.size(), 1u);
  EXPECT_EQ(cc[0]->pcs, (std::vector<uint64_t>{1, 2, 3}));
}

// A chain that fills the depth may have lost its outermost frames: the summary counts
// those, and only those (one frame short of the limit is whole).
TEST(RecordConversion, ChainsThatFillTheDepthAreCounted) {
  Harness h(3);
  h.conv->process(sample({kUser, 1, 2, 3, 4, 5, 6}));
  h.conv->process(sample({kUser, 1, 2, 3}));
  h.conv->process(sample({kUser, 1, 2}));
  h.conv->process(sample({kKernel, 0xffffffff81000010, kUser, 1, 2, 3}));
  h.finish();
  EXPECT_EQ(h.conv->stats().samples, 4u);
  EXPECT_EQ(h.conv->stats().at_depth, 2u);
}

TEST(RecordConversion, ExecForkExitTracking) {
  Harness h;
  PerfEvent comm = exec_comm(10, "prog", 10);
  PerfEvent map;
  map.type = PerfEvent::Type::mmap;
  map.pid = map.tid = 10;
  map.addr = 0x401000;
  map.len = 0x2000;
  map.pgoff = 0x1000;
  map.prot = PROT_READ | PROT_EXEC;
  map.filename = "/bin/prog";
  map.time = 11;
  PerfEvent data = map;  // not executable: no MAP_IN
  data.prot = PROT_READ;
  data.addr = 0x600000;
  PerfEvent fork;
  fork.type = PerfEvent::Type::fork;
  fork.pid = fork.tid = 11;
  fork.ppid = fork.ptid = 10;
  fork.time = 12;
  PerfEvent exit_child = fork;
  exit_child.type = PerfEvent::Type::exit;
  exit_child.time = 13;
  PerfEvent exit_parent;
  exit_parent.type = PerfEvent::Type::exit;
  exit_parent.pid = exit_parent.tid = 10;
  exit_parent.time = 14;
  h.conv->add_child(10, 1);
  for (auto* e : {&comm, &map, &data, &fork, &exit_child, &exit_parent}) h.conv->process(*e);
  auto log = h.finish();
  ASSERT_TRUE(log.ok) << log.error;
  auto exec = log.of(Kind::procexec);
  ASSERT_EQ(exec.size(), 1u);
  EXPECT_EQ(exec[0]->text, "/bin/prog");
  EXPECT_EQ((*exec[0])[Field::pid], 10u);
  // A file that cannot be read: taken as loaded from its first byte, without a linker.
  EXPECT_EQ((*exec[0])[Field::dynaddr], 0x400000u) << "load base = start - file offset";
  EXPECT_EQ((*exec[0])[Field::entryaddr], 0u) << "no linker known";
  ASSERT_EQ(log.count(Kind::map_in), 1u);
  auto fk = log.of(Kind::procfork);
  ASSERT_EQ(fk.size(), 1u);
  EXPECT_EQ((*fk[0])[Field::newpid], 11u);
  auto pc = log.of(Kind::proc_create);
  ASSERT_EQ(pc.size(), 3u);  // the command, its new name at exec, then its child
  EXPECT_EQ(pc[1]->text, "prog") << "renamed by its exec";
  EXPECT_EQ(pc[2]->text, "prog") << "the child inherits the exec'd name";
  std::vector<std::string> thread_names;
  for (auto* t : log.of(Kind::thr_create))
    if ((*t)[Field::tid] == 10) thread_names.push_back(t->text);
  ASSERT_EQ(thread_names.size(), 2u);
  EXPECT_EQ(thread_names[1], "prog") << "the thread renamed by the exec";
  EXPECT_EQ(log.count(Kind::sysexit), 2u);
  auto mo = log.of(Kind::map_out);
  ASSERT_EQ(mo.size(), 1u) << "only the parent announced the mapping";
  EXPECT_EQ((*mo[0])[Field::end], 0x403000u);
  EXPECT_EQ(log.count(Kind::thr_exit), 2u);
}

TEST(RecordConversion, LostRecordsBecomeDropnotify) {
  Harness h;
  PerfEvent lost;
  lost.type = PerfEvent::Type::lost;
  lost.lost = 17;
  h.conv->process(lost);
  h.conv->process(lost);
  auto log = h.finish();
  EXPECT_EQ(log.count(Kind::dropnotify), 2u);
  EXPECT_EQ(h.conv->stats().lost, 34u);
}

TEST(RecordConversion, ParsesASampleRecord) {
  // IDENTIFIER, IP, TID, TIME, CPU, PERIOD, CALLCHAIN as the recorder asks for them.
  record::PerfFormat f;
  f.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
  std::vector<uint64_t> words = {42, 0x401000, (uint64_t{11} << 32) | 10, 5555, 3, 1000000,
                                 2, kUser, 0x401000};
  std::vector<uint8_t> rec(8 + words.size() * 8);
  perf_event_header h{PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
                      static_cast<uint16_t>(rec.size())};
  std::memcpy(rec.data(), &h, 8);
  std::memcpy(rec.data() + 8, words.data(), words.size() * 8);
  PerfEvent e;
  ASSERT_TRUE(record::parse_perf_record(rec, f, e));
  EXPECT_EQ(e.id, 42u);
  EXPECT_EQ(e.pid, 10u);
  EXPECT_EQ(e.tid, 11u);
  EXPECT_EQ(e.time, 5555u);
  EXPECT_EQ(e.cpu, 3u);
  EXPECT_EQ(e.callchain, (std::vector<uint64_t>{kUser, 0x401000}));
  // A callchain that claims more entries than the record holds is refused.
  words[6] = 1000;
  std::memcpy(rec.data() + 8, words.data(), words.size() * 8);
  PerfEvent bad;
  EXPECT_FALSE(record::parse_perf_record(rec, f, bad));
}

namespace {

// A perf record from its body bytes, with the sample_id trailer (TID, TIME, IDENTIFIER).
std::vector<uint8_t> perf_record(uint32_t type, const std::vector<uint8_t>& body) {
  const uint64_t trailer[3] = {(uint64_t{21} << 32) | 20, 7777, 42};
  std::vector<uint8_t> rec(8 + body.size() + sizeof trailer);
  std::memcpy(rec.data() + 8, body.data(), body.size());
  std::memcpy(rec.data() + 8 + body.size(), trailer, sizeof trailer);
  const perf_event_header h{type, PERF_RECORD_MISC_USER, static_cast<uint16_t>(rec.size())};
  std::memcpy(rec.data(), &h, 8);
  return rec;
}

template <class T>
void put(std::vector<uint8_t>& b, T v) {
  b.resize(b.size() + sizeof v);
  std::memcpy(b.data() + b.size() - sizeof v, &v, sizeof v);
}

void put_name(std::vector<uint8_t>& b, const std::string& s) {  // NUL-terminated, padded to 8
  b.insert(b.end(), s.begin(), s.end());
  b.resize(b.size() + 8 - s.size() % 8, 0);
}

}  // namespace

TEST(RecordConversion, ParsesMmapAndMmap2Records) {
  record::PerfFormat f;
  f.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER;
  std::vector<uint8_t> head;  // pid, tid, addr, len, pgoff: the same in both
  put<uint32_t>(head, 10);
  put<uint32_t>(head, 11);
  put<uint64_t>(head, 0x7f0000001000);
  put<uint64_t>(head, 0x2000);
  put<uint64_t>(head, 0x3000);

  std::vector<uint8_t> mmap = head;
  put_name(mmap, "/usr/lib/libc.so.6");
  PerfEvent e;
  ASSERT_TRUE(record::parse_perf_record(perf_record(PERF_RECORD_MMAP, mmap), f, e));
  EXPECT_EQ(e.type, PerfEvent::Type::mmap);
  EXPECT_EQ(e.pid, 10u);  // the body's, not the trailer's
  EXPECT_EQ(e.tid, 11u);
  EXPECT_EQ(e.addr, 0x7f0000001000u);
  EXPECT_EQ(e.len, 0x2000u);
  EXPECT_EQ(e.pgoff, 0x3000u);
  EXPECT_EQ(e.prot, static_cast<uint32_t>(PROT_EXEC));  // plain MMAP: executable maps only
  EXPECT_EQ(e.filename, "/usr/lib/libc.so.6");
  EXPECT_EQ(e.time, 7777u);
  EXPECT_EQ(e.id, 42u);

  std::vector<uint8_t> mmap2 = head;
  put<uint64_t>(mmap2, 0x0803);  // maj, min
  put<uint64_t>(mmap2, 123456);  // ino
  put<uint64_t>(mmap2, 1);       // ino_generation
  put<uint32_t>(mmap2, PROT_READ | PROT_WRITE);
  put<uint32_t>(mmap2, MAP_PRIVATE);
  put_name(mmap2, "/tmp/data");
  PerfEvent e2;
  ASSERT_TRUE(record::parse_perf_record(perf_record(PERF_RECORD_MMAP2, mmap2), f, e2));
  EXPECT_EQ(e2.type, PerfEvent::Type::mmap);
  EXPECT_EQ(e2.pgoff, 0x3000u);
  EXPECT_EQ(e2.prot, static_cast<uint32_t>(PROT_READ | PROT_WRITE));
  EXPECT_EQ(e2.filename, "/tmp/data");

  // An MMAP2 body cut before its prot and flags is refused.
  std::vector<uint8_t> cut(mmap2.begin(), mmap2.begin() + static_cast<long>(head.size()) + 16);
  PerfEvent bad;
  EXPECT_FALSE(record::parse_perf_record(perf_record(PERF_RECORD_MMAP2, cut), f, bad));
}

// A system-wide recording samples idle CPUs in pid 0, which has no /proc entry: the idle task
// is named as perf names it, and a kernel chain of it is kept whole.
TEST(RecordConversion, IdleTaskIsNamedSwapper) {
  Harness h;
  h.conv->add_idle_task(50);
  h.conv->process(sample({kKernel, 0xffffffff81000010, 0xffffffff81000020}, 0));
  auto log = h.finish();
  ASSERT_TRUE(log.ok) << log.error;
  const auto procs = log.of(Kind::proc_create);
  const auto threads = log.of(Kind::thr_create);
  ASSERT_EQ(procs.size(), 1u);
  ASSERT_EQ(threads.size(), 1u);
  EXPECT_EQ((*procs[0])[Field::pid], 0u);
  EXPECT_EQ(procs[0]->text, "swapper");
  EXPECT_EQ((*threads[0])[Field::tid], 0u);
  EXPECT_EQ(threads[0]->text, "swapper");
  const auto chains = log.of(Kind::callchain);
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains[0]->pcs.size(), 2u);
}

namespace {

// The one-frame samples a Merger test wrote, as their frame's offset from 0x401000, in log
// order.
std::vector<uint64_t> written_offsets(Harness& h) {
  const auto log = h.finish();
  EXPECT_TRUE(log.ok) << log.error;
  std::vector<uint64_t> out;
  for (const auto* c : log.of(Kind::callchain))
    out.push_back(c->pcs.size() == 1 ? c->pcs[0] - 0x401000 : 0);
  return out;
}

}  // namespace

// The merger writes the due events in time order however many flushes a deadline cuts the
// writing into, and holds the others meanwhile (the recorder drains its buffers between).
TEST(RecordMerger, ADeadlineCutsAFlushWithoutChangingTheOrder) {
  Harness h;
  record::Merger m(*h.conv);
  for (const uint64_t t : {300, 100, 200, 500, 400}) m.add(sample({kUser, 0x401000 + t}, 10, t));
  const size_t held = m.held_bytes();
  EXPECT_GT(held, 0u);
  // A deadline already past: one event per flush, the earliest due first.
  for (int i = 0; i < 3; ++i) {
    m.flush_before(450, 0);
    EXPECT_TRUE(m.behind()) << i;
  }
  EXPECT_LT(m.held_bytes(), held);
  m.flush_before(450, 0);
  EXPECT_FALSE(m.behind()) << "400 was the last one due";
  m.flush_all();
  EXPECT_FALSE(m.behind());
  EXPECT_EQ(m.held_bytes(), 0u);
  EXPECT_EQ(written_offsets(h), (std::vector<uint64_t>{100, 200, 300, 400, 500}));
}

// Past its cap on held bytes, a flush writes every due event whatever its deadline: the
// memory a slow conversion can take stays bounded.
TEST(RecordMerger, PastItsBacklogCapAFlushWritesEveryDueEvent) {
  Harness h;
  record::Merger m(*h.conv, 1);
  for (const uint64_t t : {30, 10, 20}) m.add(sample({kUser, 0x401000 + t}, 10, t));
  m.flush_before(UINT64_MAX, 0);
  EXPECT_FALSE(m.behind());
  EXPECT_EQ(m.held_bytes(), 0u);
  EXPECT_EQ(written_offsets(h), (std::vector<uint64_t>{10, 20, 30}));
}
