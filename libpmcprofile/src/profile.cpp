#include "pmcprofile/profile.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string_view>

namespace pmcprofile {

uint32_t Tables::event(const std::string& name, uint64_t rate) {
  const auto fresh_id = [&] {
    const auto id = static_cast<uint32_t>(events.size());
    events.push_back(name);
    event_steps_.push_back({false, id, name, rate});
    set_rate(id, rate);
    merge_events();
    return id;
  };
  auto first = event_ids_.find(name);
  if (first == event_ids_.end()) return event_ids_[name] = fresh_id();
  if (rate == 0) return first->second;
  if (auto it = rate_ids_.find({name, rate}); it != rate_ids_.end()) return it->second;
  const uint32_t id0 = first->second;
  if (id0 < event_rates.size() && event_rates[id0] != 0) return fresh_id();  // another rate
  event_steps_.push_back({false, id0, name, rate});  // the first rate said: the name's id
  set_rate(id0, rate);
  return id0;
}

void Tables::set_rate(uint32_t id, uint64_t rate) {
  if (event_rates.size() <= id) event_rates.resize(id + 1);
  if (rate == 0) return;
  event_rates[id] = rate;
  rate_ids_.try_emplace({events[id], rate}, id);
}

void Tables::rename_event(uint32_t id, const std::string& name, uint64_t rate) {
  event_steps_.push_back({true, id, name, rate});
  event_ids_.erase(events[id]);
  events[id] = name;
  event_ids_.try_emplace(name, id);  // a name taken already keeps its first id
  set_rate(id, rate);
  merge_events();
}

void Tables::merge_events() {
  // Made again whole: events are few, and a rename may join or part any two ids.
  DistinctEvents& d = distinct_events;
  d.first.clear();
  d.of.assign(events.size(), 0);
  std::unordered_map<std::string_view, uint32_t> seen;
  for (uint32_t e = 0; e < events.size(); ++e) {
    auto [it, fresh] = seen.try_emplace(events[e], static_cast<uint32_t>(d.first.size()));
    if (fresh) d.first.push_back(e);
    d.of[e] = it->second;
  }
  d.by_name.resize(d.first.size());
  std::iota(d.by_name.begin(), d.by_name.end(), 0u);
  std::sort(d.by_name.begin(), d.by_name.end(),
            [&](uint32_t a, uint32_t b) { return events[d.first[a]] < events[d.first[b]]; });
}

uint32_t Tables::comm(const std::string& name) {
  auto [it, fresh] = comm_ids_.try_emplace(name, static_cast<uint32_t>(comms.size()));
  if (fresh) comms.push_back(name);
  return it->second;
}

uint32_t Tables::thread(const std::string& name) {
  auto [it, fresh] = thread_ids_.try_emplace(name, static_cast<uint32_t>(threads.size()));
  if (fresh) threads.push_back(name);
  return it->second;
}

FrameId Tables::frame(const Frame& f) {
  auto [it, fresh] = frame_ids_.try_emplace(f, static_cast<FrameId>(frames.size()));
  if (fresh) frames.push_back(f);
  return it->second;
}

uint32_t Tables::context(const Context& c) {
  auto [it, fresh] = context_ids_.try_emplace(std::make_tuple(c.event, c.comm, c.pid, c.tid, c.thread, c.cpu, c.input),
                                              static_cast<uint32_t>(contexts_.size()));
  if (fresh) contexts_.push_back(c);
  return it->second;
}

FunctionId Tables::function(Function f) {
  // One function per (object, name, kind, file and line): the same name in two objects stays
  // two rows. Most frames have no file: their key stays short.
  std::string key;
  key.reserve(f.name.size() + f.file.size() + 32);
  key += f.name;
  key += '\0';
  key += std::to_string(f.object);
  key += f.kernel ? 'k' : 'u';
  if (!f.file.empty() || f.line != 0) {
    key += '\0';
    key += f.file;
    key += '\0';
    key += std::to_string(f.line);
  }
  auto [it, fresh] = function_ids_.try_emplace(key, static_cast<FunctionId>(functions.size()));
  if (fresh) functions.push_back(std::move(f));
  return it->second;
}

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// An unresolved frame's offset is its distance from where the log places the object (the
// MAP_IN start, its first executable page; else PROCEXEC's load base): the same whether or
// not a file was found for it. A found file's addresses count from its own ELF addresses.
uint64_t unresolved_offset(uint64_t address, const ObjectInfo& o) {
  return o.mapped_in && o.layout.valid ? address - o.layout.exec_lo : address;
}

Function unresolved(std::string label, ObjectId object, bool kernel, Unresolved why) {
  Function f;
  f.name = std::move(label);
  f.object = object;
  f.kernel = kernel;
  f.why = why;
  return f;
}

}  // namespace

std::string function_label(const Function& f) {
  if (f.file.empty()) return f.name;
  const size_t slash = f.file.rfind('/');
  std::string out = f.name;
  out += " (";
  out.append(f.file, slash == std::string::npos ? 0 : slash + 1);
  out += ':';
  out += std::to_string(f.line);
  out += ')';
  return out;
}

void Tables::symbolize(Symbolizer& sym, ObjectTable& objects) {
  for (FrameId id = static_cast<FrameId>(frame_functions.size()); id < frames.size(); ++id) {
    const Frame& f = frames[id];
    std::vector<FunctionRef> refs;
    if (f.where.object == kNoObject) {
      refs.push_back({function(unresolved(hex(f.where.address), kNoObject, f.where.kernel,
                                          Unresolved::no_mapping)),
                      0});
    } else {
      const Symbolized& s = sym.lookup(f.where.object, f.where.address, f.caller);
      const ObjectInfo& o = objects.peek(f.where.object);
      if (s.frames.empty()) {
        // Kernel frames without kernel symbols keep the run-time address, as pmcstat does.
        std::string label;
        if (f.where.kernel && is_kernel_image_path(o.path)) {
          label = "[kernel] ";
          label += hex(f.where.address);
        } else {
          label = o.name;
          label += '+';
          label += hex(unresolved_offset(f.where.address, o));
        }
        refs.push_back({function(unresolved(label, f.where.object, f.where.kernel, s.why)), 0});
      } else {
        for (const SymbolFrame& sf : s.frames)
          refs.push_back({function({sf.name, sf.file, sf.line, f.where.object, f.where.kernel,
                                    Unresolved::none}),
                          sf.inline_depth});
      }
    }
    frame_functions.push_back(std::move(refs));
  }
}

NodeId Profile::root(uint32_t context) {
  const uint64_t key = (uint64_t{0xFFFFFFFFu} << 32) | context;
  const auto [node, fresh] = children_.try_emplace(key, static_cast<NodeId>(nodes.size()));
  if (fresh) {
    nodes.push_back({kNoNode, context});
    self.push_back(0);
  }
  return node;
}

NodeId Profile::child(NodeId parent, FrameId frame) {
  const uint64_t key = (uint64_t{parent} << 32) | frame;
  const auto [node, fresh] = children_.try_emplace(key, static_cast<NodeId>(nodes.size()));
  if (fresh) {
    nodes.push_back({parent, frame});
    self.push_back(0);
  }
  return node;
}

void Profile::add(NodeId leaf, uint64_t n) {
  self[leaf] += n;
  samples += n;
}

uint32_t Profile::context_of(NodeId n) const {
  while (nodes[n].parent != kNoNode) n = nodes[n].parent;
  return nodes[n].value;
}

}  // namespace pmcprofile
