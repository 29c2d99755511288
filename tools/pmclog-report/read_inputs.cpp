#include "read_inputs.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "pmclog/open.h"

namespace report {

namespace {

struct Slot {
  std::unique_ptr<pmcprofile::Session> session;
  pmcprofile::InputReport report;
  bool ready = false;
};

}  // namespace

// The workers merge too: whichever finishes the input that is due next absorbs it, and any
// after it that are ready. A merging thread of its own made jobs + 1 busy threads on jobs
// cores, and the workers waited for it while the scheduler shared the cores out. The calling
// thread only hands each absorbed input's report to `done`.
void read_in_parallel(pmcprofile::Session& into, const pmcprofile::Options& opt,
                      const std::vector<std::string>& inputs, unsigned jobs,
                      const std::function<void(size_t)>& before,
                      const std::function<void(const std::string&, const pmcprofile::InputReport&)>& done) {
  pmcprofile::Options quiet = opt;
  quiet.progress = nullptr;  // one progress line, not a thread each writing its own
  std::vector<Slot> slots(inputs.size());
  std::mutex mu;
  std::condition_variable cv;
  size_t next = 0, absorbed = 0;
  bool merging = false;  // a worker is absorbing: `into` is its alone
  bool stop = false;
  std::exception_ptr failure;  // from a worker, passed on by the calling thread
  // Inputs read and not merged yet hold their profiles: one per thread, and one more, so
  // that no thread waits while the input before it is merged.
  const size_t ahead = static_cast<size_t>(jobs) + 1;
  // Absorbs every ready input from `absorbed` on; called and returns with `lock` held.
  const auto merge_ready = [&](std::unique_lock<std::mutex>& lock) {
    merging = true;
    while (!stop && absorbed < inputs.size() && slots[absorbed].ready) {
      const size_t k = absorbed;
      std::unique_ptr<pmcprofile::Session> s = std::move(slots[k].session);
      pmcprofile::InputReport& r = slots[k].report;  // the caller reads it once absorbed > k
      lock.unlock();
      before(k);
      into.absorb(std::move(*s));
      s.reset();
      into.look_up_symbols_ahead();  // while the next inputs are read, not after the last
      if (opt.max_stacks != 0 && into.stack_nodes() > opt.max_stacks && !r.stack_cap) {
        r.stack_cap = true;
        r.error = pmclog::input_display_name(inputs[k]) + ": more than " +
                  std::to_string(opt.max_stacks) +
                  " distinct stacks (stack-table nodes) with this input's";
      }
      lock.lock();
      absorbed = k + 1;
      cv.notify_all();
    }
    merging = false;
  };
  const auto work = [&] {
    std::unique_lock lock(mu);
    bool mine = false;  // this thread holds `merging`
    try {
      for (;;) {
        cv.wait(lock, [&] { return stop || next >= inputs.size() || next < absorbed + ahead; });
        if (stop || next >= inputs.size()) return;
        const size_t k = next++;
        lock.unlock();
        auto s = std::make_unique<pmcprofile::Session>(quiet);
        pmcprofile::InputReport r = s->add_log(inputs[k]);
        lock.lock();
        slots[k].session = std::move(s);
        slots[k].report = std::move(r);
        slots[k].ready = true;
        if (!merging) {
          mine = true;
          merge_ready(lock);
          mine = false;
        }
      }
    } catch (...) {
      if (!lock.owns_lock()) lock.lock();
      if (mine) merging = false;
      if (!failure) failure = std::current_exception();
      stop = true;
      cv.notify_all();
    }
  };
  // Joined on every way out, an exception from `done` included.
  struct Threads {
    std::vector<std::thread> all;
    std::mutex& mu;
    std::condition_variable& cv;
    bool& stop;
    ~Threads() {
      {
        std::lock_guard lock(mu);
        stop = true;
      }
      cv.notify_all();
      for (auto& t : all) t.join();
    }
  } threads{{}, mu, cv, stop};
  const size_t n = std::min<size_t>(jobs, inputs.size());
  for (size_t i = 0; i < n; ++i) threads.all.emplace_back(work);
  for (size_t k = 0; k < inputs.size(); ++k) {
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return failure || absorbed > k; });
      if (failure) std::rethrow_exception(failure);
    }
    done(inputs[k], slots[k].report);
  }
}

}  // namespace report
