// Chunks of output written in order on a thread of their own, as the kernel's log writer
// takes full buffers from the CPUs that fill them: making records and writing them overlap
// (a write to the page cache costs a third of a synthetic log's time when done in line).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace pmclog::write {

class ChunkWriter {
 public:
  // Called on the writer thread, one chunk at a time, in the order submitted. What it throws
  // stops the writing and is thrown again by the next submit() or drain().
  using Sink = std::function<void(std::span<const uint8_t> bytes, bool raw, uint64_t records)>;

  explicit ChunkWriter(Sink sink);
  ~ChunkWriter();  // stops the thread; chunks not written yet are dropped

  // Takes `bytes` (it is left empty, with a spare buffer's capacity). Waits while two chunks
  // are queued, so memory stays a few chunks whatever the output's speed.
  void submit(std::vector<uint8_t>& bytes, bool raw, uint64_t records);
  // Returns when every submitted chunk is written, throwing the sink's error if it failed.
  void drain();

 private:
  struct Chunk {
    std::vector<uint8_t> bytes;
    bool raw;
    uint64_t records;
  };
  static constexpr size_t kMaxQueued = 2;
  void run();
  void throw_if_failed_locked();

  Sink sink_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Chunk> queue_;                  // with mu_
  std::vector<std::vector<uint8_t>> spare_;  // written chunks' buffers, for reuse; with mu_
  bool busy_ = false;                        // the thread is writing a chunk; with mu_
  bool stop_ = false;                        // with mu_
  std::exception_ptr error_;                 // with mu_
  std::thread thread_;                       // started by the first submit()
};

}  // namespace pmclog::write
