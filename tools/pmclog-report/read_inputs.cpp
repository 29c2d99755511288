#include "read_inputs.h"

#include <algorithm>
#include <condition_variable>
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
  bool stop = false;
  // Inputs read and not merged yet hold their profiles: one per thread, and one more, so
  // that no thread waits while the input before it is merged.
  const size_t ahead = static_cast<size_t>(jobs) + 1;
  const auto work = [&] {
    for (;;) {
      size_t k;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return stop || next >= inputs.size() || next < absorbed + ahead; });
        if (stop || next >= inputs.size()) return;
        k = next++;
      }
      auto s = std::make_unique<pmcprofile::Session>(quiet);
      pmcprofile::InputReport r = s->add_log(inputs[k]);
      std::lock_guard lock(mu);
      slots[k].session = std::move(s);
      slots[k].report = std::move(r);
      slots[k].ready = true;
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
    Slot slot;
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return slots[k].ready; });
      slot = std::move(slots[k]);
    }
    before(k);
    into.absorb(std::move(*slot.session));
    slot.session.reset();
    into.look_up_symbols_ahead();  // while the next inputs are read, not after the last
    if (opt.max_stacks != 0 && into.stack_nodes() > opt.max_stacks && !slot.report.stack_cap) {
      slot.report.stack_cap = true;
      slot.report.error = pmclog::input_display_name(inputs[k]) + ": more than " +
                          std::to_string(opt.max_stacks) +
                          " distinct stacks (stack-table nodes) with this input's";
    }
    {
      std::lock_guard lock(mu);
      absorbed = k + 1;
    }
    cv.notify_all();
    done(inputs[k], slot.report);
  }
}

}  // namespace report
