// The two views of a symbolized Profile that pmclog-report prints: the function table of
// `top` (self and total samples, grouped like perf report --sort) and folded stacks
// (flamegraph.pl's input), and the count of what stayed unresolved; and ProfileView, what
// every output reads.
//
// The views only read the Profile and Tables: they may run in parallel on a profile that
// no thread is changing.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmcprofile/profile.h"

namespace pmcprofile {

// The profiles of a Session as outputs read them, symbolized (Session::symbolize() has run:
// Tables::functions is filled and every object with frames was looked up), with the tables
// and objects their ids index. Valid while the Session is not changed.
struct ProfileView {
  const std::vector<Profile>& profiles;
  const Tables& tables;
  const ObjectTable& objects;
};

// function_label() of every function of a Tables, made once, and only where it is not the
// name itself (a function with a file): outputs print and sort by the same functions many
// times. Valid while the Tables' functions are not changed.
class FunctionLabels {
 public:
  explicit FunctionLabels(const Tables& t);
  FunctionLabels(const FunctionLabels&) = delete;
  FunctionLabels& operator=(const FunctionLabels&) = delete;
  const std::string& operator()(FunctionId f) const { return *labels_[f]; }

 private:
  std::deque<std::string> made_;  // the labels that are not names (stable addresses)
  std::vector<const std::string*> labels_;  // by FunctionId
};

// What a top row is keyed by (perf report --sort comm,dso,sym).
// tid and thread need Options::keep_threads (the profile has no threads otherwise).
struct GroupBy {
  bool comm = true, pid = false, tid = false, thread = false, object = true, symbol = true;
};

struct TopRow {
  uint32_t event = 0;
  uint32_t comm = 0xFFFFFFFFu;  // 0xFFFFFFFF when not grouped by it
  uint32_t pid = 0xFFFFFFFFu;
  uint32_t tid = 0xFFFFFFFFu;     // with by.tid or by.thread
  uint32_t thread = 0xFFFFFFFFu;  // Tables::threads, with by.thread
  ObjectId object = kNoObject;  // kNoObject when not grouped by it (or none)
  bool object_grouped = false;
  FunctionId function = 0xFFFFFFFFu;  // 0xFFFFFFFF when not grouped by symbol
  uint64_t self = 0;   // samples whose leaf is here
  uint64_t total = 0;  // samples with this row anywhere in the stack (counted once each)
};

// A row's key (everything but its counts), for maps of rows.
struct TopRowKeyHash {
  size_t operator()(const TopRow& r) const;
};
struct TopRowKeyEq {
  bool operator()(const TopRow& a, const TopRow& b) const;
};

enum class SortKey : uint8_t { self, total, name, object };

// Samples of an event, counting every event id of its distinct event (Tables::distinct_events).
uint64_t event_samples(const Profile& p, const Tables& t, uint32_t event);
// Samples of each distinct event (Tables::distinct_events order) over the profiles.
std::vector<uint64_t> distinct_event_samples(std::span<const Profile> ps, const Tables& t);

// Rows of every event (call Tables::symbolize first). With `inlines`, the innermost inlined
// function at the leaf takes the self samples.
std::vector<TopRow> top_rows(const Profile& p, const Tables& t, const ObjectTable& objects,
                             const GroupBy& by, SortKey sort);
// The same rows in no order, for a caller that sorts its own (the diff): `label` is the
// Tables' (rows without the object in the key are one per label). With `weight` (by event
// id), a sample counts weight[its event id] times.
std::vector<TopRow> top_rows_unsorted(const Profile& p, const Tables& t,
                                      const FunctionLabels& label, const GroupBy& by,
                                      std::span<const uint64_t> weight = {});

// Every distinct stack of a profile at function level, root first, once per leaf node with
// samples: f(context id, functions, self samples). Inlined calls are kept with `inlines`
// (FunctionRef::inlined set), else left out. The views below and the tool's outputs (svg,
// callgraph, speedscope) all walk stacks through this.
using StackVisitor =
    std::function<void(uint32_t context, std::span<const FunctionRef> stack, uint64_t samples)>;
void for_each_function_stack(const Profile& p, const Tables& t, bool inlines, const StackVisitor& f);

struct FoldedOptions {
  bool event_frame = true;  // the event as the root frame (off only when one event is selected)
  bool comm_frame = false;  // the command as the next frame
  bool inlines = false;     // inlined calls as frames (suffix _[i])
  std::span<const uint64_t> weight;  // by event id: a sample counts this many times (empty: 1)
};

// One line per distinct stack, root first: "frame;frame;... count", sorted; kernel frames
// end in "_[k]". ';' in names becomes ':' (flamegraph.pl splits on ';').
std::vector<std::string> folded_lines(const Profile& p, const Tables& t, const FoldedOptions& o);
// The same lines as one text, each after `prefix` and ending in '\n' (a folded file), made
// without a string per line.
std::string folded_text(const Profile& p, const Tables& t, const FoldedOptions& o,
                        std::string_view prefix = {});
// The same text given to `write` in pieces of whole lines, about 128 KiB each: a folded
// output runs to megabytes (2.35 MB at 20,000 samples), its pieces reuse one buffer.
void folded_text(const Profile& p, const Tables& t, const FoldedOptions& o, std::string_view prefix,
                 const std::function<void(std::string_view)>& write);

struct UnresolvedSummary {
  uint64_t samples = 0, frames = 0;  // all samples, all frames of all samples
  uint64_t leaf_samples[kUnresolvedKinds] = {};  // samples whose leaf frame stayed unresolved
  uint64_t frame_count[kUnresolvedKinds] = {};   // frames, by reason
  // Objects whose frames stayed unresolved, by frames, most first: (object, frames, why).
  struct Object {
    ObjectId id;
    uint64_t frames;
    Unresolved why;
  };
  std::vector<Object> objects;
};
UnresolvedSummary summarize_unresolved(const Profile& p, const Tables& t);

}  // namespace pmcprofile
