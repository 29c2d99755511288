// The aggregated profile: a stack table in the style of pprof and the Firefox Profiler's
// processed format. Each distinct stack is a node (parent node + frame); each sample adds
// its weight to its leaf node. Memory grows with distinct stacks, never with samples.
// Names (events, commands, frames, functions) live in Tables, shared by every profile of a
// Session so that per-input profiles (--by-file) and the merged one use the same ids.
//
// Memory: Profile and Tables are plain owned values; ids (FrameId, NodeId, FunctionId) are
// indexes into them and mean nothing in another Session's tables.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "pmcprofile/address_space.h"
#include "pmcprofile/node_index.h"
#include "pmcprofile/symbolizer.h"

namespace pmcprofile {

using FrameId = uint32_t;
using NodeId = uint32_t;
using FunctionId = uint32_t;
inline constexpr NodeId kNoNode = 0xFFFFFFFFu;

// An address-level frame: where in which object, and whether it is a return address.
struct Frame {
  Location where;
  bool caller = false;  // not the interrupted pc: a return address
  bool operator==(const Frame& o) const {
    return where.object == o.where.object && where.address == o.where.address &&
           where.kernel == o.where.kernel && caller == o.caller;
  }
};

// A function-level frame after symbolization: a function (at a source line with
// SymbolOptions::lines), or the label of an unresolved frame ("libc.so.7+0x1234",
// "0x7fff1234", "[kernel] 0xffffffff81000000"). Each fact is a field of its own; outputs that
// print one string make it with function_label().
struct Function {
  std::string name;  // the symbol's name (demangled unless asked otherwise), or the label
  std::string file;  // with lines: the source file as the debug information names it ("" unknown)
  uint32_t line = 0;
  ObjectId object = kNoObject;
  bool kernel = false;
  Unresolved why = Unresolved::none;
};

// The name as top, folded, the svg and callgraph print it: with a file, "name (file.c:12)"
// (the file's base name).
std::string function_label(const Function& f);

// One of the functions a frame stands for (Tables::frame_functions).
struct FunctionRef {
  FunctionId id = 0;
  // SymbolFrame::inline_depth: 0 for the function the frame's address is in, k for the k-th
  // call inlined into it (inside the function before it in the frame).
  uint16_t inline_depth = 0;
  bool inlined() const { return inline_depth != 0; }
};

// What every sample is grouped by besides its stack.
struct Context {
  uint32_t event = 0;
  uint32_t comm = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint32_t thread = 0;  // Tables::threads
  uint32_t cpu = kNoCpu;    // with Options::keep_cpus
  uint32_t input = kNoInput;  // Tables::inputs, with Options::keep_inputs
  static constexpr uint32_t kNoCpu = 0xFFFFFFFFu;
  static constexpr uint32_t kNoInput = 0xFFFFFFFFu;
  bool operator==(const Context&) const = default;
};

// The events as every view counts them. A pmc sampled before its allocation record has a
// provisional name until Tables::rename_event(), maybe one another id has: event ids of one
// name are one event. Tables keeps the merge, so that no view makes it again.
struct DistinctEvents {
  std::vector<uint32_t> first;    // per distinct event, in order of first id: that id (its name's)
  std::vector<uint32_t> of;       // by event id: its distinct event (an index into first)
  std::vector<uint32_t> by_name;  // the distinct events in name order, as outputs list them
};

class Tables {
 public:
  std::vector<std::string> events;  // by event id: "cpu-clock", "INSTR_RETIRED_ANY"...
  // By event id: events per sample, the reload count a modern PMCALLOCATE(DYN) carries in its
  // rate field; 0 when unknown (legacy logs, counting PMCs, frequency-mode recorders). Logs
  // that sample one event at different rates give it one id per rate (one distinct event),
  // so that a sample's id says how many events it stands for.
  std::vector<uint64_t> event_rates;
  DistinctEvents distinct_events;  // follows events (event(), rename_event())
  std::vector<std::string> comms;   // by comm id
  std::vector<std::string> threads{std::string()};  // thread names by id; 0 is "no name"
  std::vector<std::string> inputs;  // input display names ("(stdin)" for "-"), in add_log order
  std::vector<Frame> frames;        // by FrameId
  // By FunctionId, filled by symbolize(): one per (name, file, line, object, kernel or not).
  std::vector<Function> functions;
  // Per frame, the functions it stands for, outermost first (one unless inlines are shown).
  std::vector<std::vector<FunctionRef>> frame_functions;

  // The id of an event sampled every `rate` events (0: not said). A name's first id serves
  // a rate not said, and takes the first rate said; another rate gets an id of its own.
  uint32_t event(const std::string& name, uint64_t rate = 0);
  // Names an event that samples met before its allocation record (legacy file order).
  // Two ids may then share a name: distinct_events makes them one event.
  void rename_event(uint32_t id, const std::string& name, uint64_t rate = 0);
  uint32_t comm(const std::string& name);
  uint32_t thread(const std::string& name);
  FrameId frame(const Frame& f);
  uint32_t context(const Context& c);
  const Context& context_of(uint32_t id) const { return contexts_[id]; }
  size_t context_count() const { return contexts_.size(); }

  // Symbolizes the frames added since the last call (each once, through the cache).
  void symbolize(Symbolizer& sym, ObjectTable& objects);

  // How another Session's ids map to these tables after absorb().
  struct Remap {
    std::vector<uint32_t> events, frames, contexts;
  };
  // Adds the names, frames and contexts of tables made by another Session from later inputs
  // (not symbolized yet), in their id order: the ids they get are those reading the inputs
  // one after the other would have given. `objects` maps the other Session's object ids.
  Remap absorb(const Tables& later, const std::vector<ObjectId>& objects);

 private:
  struct FrameHash {
    size_t operator()(const Frame& f) const {
      uint64_t h = f.where.address * 0x9E3779B97F4A7C15ull;
      h ^= (uint64_t{f.where.object} << 2 | uint64_t{f.where.kernel} << 1 | f.caller) *
           0xC2B2AE3D27D4EB4Full;
      return static_cast<size_t>(h ^ (h >> 31));
    }
  };
  std::unordered_map<Frame, FrameId, FrameHash> frame_ids_;
  std::unordered_map<std::string, uint32_t> event_ids_, comm_ids_;  // a name's first id
  std::map<std::pair<std::string, uint64_t>, uint32_t> rate_ids_;   // (name, rate said): id
  // Each new event id and each rename, in order: absorb() replays them, since which id a
  // name ends with depends on the order of the two.
  struct EventStep {
    bool rename = false;
    uint32_t id = 0;
    std::string name;
    uint64_t rate = 0;
  };
  void set_rate(uint32_t id, uint64_t rate);
  std::vector<EventStep> event_steps_;
  std::unordered_map<std::string, uint32_t> thread_ids_{{std::string(), 0}};
  // (event, comm, pid, tid, thread, cpu, input): new stacks only
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>, uint32_t>
      context_ids_;
  std::vector<Context> contexts_;
  std::unordered_map<std::string, FunctionId> function_ids_;
  FunctionId function(Function f);
  void merge_events();
};

struct StackNode {
  NodeId parent = kNoNode;  // kNoNode for a root
  uint32_t value = 0;       // a root: its context id; otherwise its FrameId
};

class Profile {
 public:
  std::string name;  // the input for --by-file, "" for the merged profile
  std::vector<StackNode> nodes;
  std::vector<uint64_t> self;  // samples whose leaf is the node, by NodeId
  std::vector<uint64_t> event_samples;  // samples per event id
  uint64_t samples = 0;

  NodeId root(uint32_t context);
  NodeId child(NodeId parent, FrameId frame);
  // Adds a profile of another Session's tables (Tables::absorb's map), node by node in id
  // order, as reading its samples here would have added them.
  void absorb(const Profile& later, const Tables::Remap& ids);
  void add(NodeId leaf, uint64_t n = 1);
  bool is_root(NodeId n) const { return nodes[n].parent == kNoNode; }
  // The context of a node's stack (walks up to the root).
  uint32_t context_of(NodeId n) const;

 private:
  NodeIndex children_;  // parent << 32 | frame (roots: ~0 << 32 | ctx)
};

}  // namespace pmcprofile
