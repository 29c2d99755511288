// Merging what Sessions read on several threads, one input each, into the Session of the
// first input, in input order. Every table interns in order of first appearance, so taking a
// later Session's entries in their id order gives each the id it would have had if its
// input had been read here: the merged Session, and every output made from it, are the ones
// reading the inputs one after the other gives, whatever the number of threads.
#include <algorithm>

#include "pmcprofile/session.h"

namespace pmcprofile {

std::vector<ObjectId> ObjectTable::absorb(const ObjectTable& later) {
  std::vector<uint32_t> systems(later.systems_.size() + 1, 0);  // 0 stays "no log"
  for (size_t i = 0; i < later.systems_.size(); ++i) {
    const LogSystem& sys = later.systems_[i];
    auto [it, fresh] = system_ids_.try_emplace(sys.key(), static_cast<uint32_t>(systems_.size() + 1));
    if (fresh) systems_.push_back(sys);
    systems[i + 1] = it->second;
  }
  std::vector<ObjectId> ids(later.objects_.size());
  for (size_t i = 0; i < later.objects_.size(); ++i) {
    const ObjectInfo& src = later.objects_[i];
    const uint32_t sys = systems[src.system];
    std::string key = src.path;
    key += '\0';
    key += std::to_string(sys);
    auto [it, fresh] = by_path_.try_emplace(std::move(key), static_cast<ObjectId>(objects_.size()));
    ids[i] = it->second;
    if (fresh) {
      objects_.push_back(src);
      objects_.back().system = sys;
      continue;
    }
    ObjectInfo& dst = objects_[it->second];
    dst.kernel = dst.kernel || src.kernel;
    dst.execed = dst.execed || src.execed;
    dst.mapped_in = dst.mapped_in || src.mapped_in;
    if (!dst.located && src.located) {  // found on disk by the later reader: the same answer
      dst.located = true;
      dst.file = src.file;
      dst.missing = src.missing;
      dst.refused = src.refused;
      dst.layout = src.layout;
      dst.kallsyms = src.kallsyms;
    } else if (dst.located && src.located) {
      dst.kallsyms = dst.kallsyms && src.kallsyms;
    }
    // Two logs that map the kernel at two addresses are two boots: no kallsyms for either.
    if (src.kallsyms_mapped != 0) {
      if (dst.kallsyms_mapped == 0) dst.kallsyms_mapped = src.kallsyms_mapped;
      else if (dst.kallsyms_mapped != src.kallsyms_mapped) dst.kallsyms = false;
    }
  }
  return ids;
}

Tables::Remap Tables::absorb(const Tables& later, const std::vector<ObjectId>& objects) {
  Remap m;
  m.events.resize(later.events.size());
  // Events as the later reader made them: a pmc sampled before its allocation record gets
  // an id under a stand-in name, renamed later, and keeps that id even when the real name
  // has another; which id a name ends with depends on the order of the steps.
  uint32_t seen = 0;  // ids below are made (ids are made in order)
  for (const EventStep& st : later.event_steps_) {
    if (st.rename) {
      rename_event(m.events[st.id], st.name, st.rate);
    } else if (st.id < seen) {
      event(st.name, st.rate);  // a rate said for an id already made: the id stays
    } else {
      if (m.events.size() <= st.id) m.events.resize(st.id + 1);
      m.events[st.id] = event(st.name, st.rate);
      seen = st.id + 1;
    }
  }
  std::vector<uint32_t> comms_map(later.comms.size()), threads_map(later.threads.size());
  for (size_t c = 0; c < later.comms.size(); ++c) comms_map[c] = comm(later.comms[c]);
  for (size_t t = 0; t < later.threads.size(); ++t) threads_map[t] = thread(later.threads[t]);
  const auto first_input = static_cast<uint32_t>(inputs.size());
  inputs.insert(inputs.end(), later.inputs.begin(), later.inputs.end());
  m.frames.resize(later.frames.size());
  frame_ids_.reserve(frames.size() + later.frames.size());
  for (size_t f = 0; f < later.frames.size(); ++f) {
    Frame fr = later.frames[f];
    if (fr.where.object != kNoObject) fr.where.object = objects[fr.where.object];
    m.frames[f] = frame(fr);
  }
  m.contexts.resize(later.contexts_.size());
  for (size_t c = 0; c < later.contexts_.size(); ++c) {
    Context ctx = later.contexts_[c];
    ctx.event = m.events[ctx.event];
    ctx.comm = comms_map[ctx.comm];
    ctx.thread = threads_map[ctx.thread];
    if (ctx.input != Context::kNoInput) ctx.input += first_input;
    m.contexts[c] = context(ctx);
  }
  return m;
}

void Profile::absorb(const Profile& later, const Tables::Remap& ids) {
  children_.reserve(nodes.size() + later.nodes.size());  // no rehash while nodes are added
  std::vector<NodeId> nodes_map(later.nodes.size());
  for (size_t n = 0; n < later.nodes.size(); ++n) {
    const StackNode& sn = later.nodes[n];
    nodes_map[n] = sn.parent == kNoNode ? root(ids.contexts[sn.value])
                                        : child(nodes_map[sn.parent], ids.frames[sn.value]);
    self[nodes_map[n]] += later.self[n];
  }
  samples += later.samples;
  for (size_t e = 0; e < later.event_samples.size(); ++e) {
    const uint32_t id = ids.events[e];
    if (event_samples.size() <= id) event_samples.resize(id + 1);
    event_samples[id] += later.event_samples[e];
  }
}

void Session::absorb(Session&& later) {
  const std::vector<ObjectId> objects = objects_.absorb(later.objects_);
  const Tables::Remap ids = tables_.absorb(later.tables_, objects);
  stacks_ = 0;
  if (opt_.by_file) {
    for (const Profile& p : later.profiles_) {
      profiles_.emplace_back();
      profiles_.back().name = p.name;
      profiles_.back().absorb(p, ids);
    }
  } else {
    profiles_.back().absorb(later.profiles_[0], ids);  // the current one (begin_profile)
  }
  for (const Profile& p : profiles_) stacks_ += p.nodes.size();
  const auto either = [](std::vector<bool>& a, const std::vector<bool>& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) a[i] = a[i] || b[i];
  };
  const FilterMatches& m = later.matches_;
  either(matches_.events, m.events);
  either(matches_.comms, m.comms);
  either(matches_.pids, m.pids);
  either(matches_.tids, m.tids);
  either(matches_.cpus, m.cpus);
  matches_.user = matches_.user || m.user;
  matches_.kernel = matches_.kernel || m.kernel;
  matches_.from = matches_.from || m.from;
  matches_.to = matches_.to || m.to;
}

}  // namespace pmcprofile
