#include "pmcprofile/session.h"

#include <sys/stat.h>

#include <unordered_map>

#include "pmclog/open.h"
#include "pmclog/pmclog.h"
#include "replay.h"

namespace pmcprofile {

struct Session::Pool {
  std::vector<Held> held;
};

Session::Session(Options opt)
    : opt_(std::move(opt)), objects_(opt_.locate), symbolizer_(objects_, opt_.symbols),
      pool_(std::make_unique<Pool>()) {
  const Filter& f = opt_.filter;
  matches_.events.assign(f.events.size(), false);
  matches_.comms.assign(f.comms.size(), false);
  matches_.pids.assign(f.pids.size(), false);
  matches_.tids.assign(f.tids.size(), false);
  matches_.cpus.assign(f.cpus.size(), false);
  if (!opt_.by_file) profiles_.emplace_back();
}

Session::~Session() = default;

std::vector<std::string> Session::unmatched_events() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < matches_.events.size(); ++i)
    if (!matches_.events[i]) out.push_back(opt_.filter.events[i]);
  return out;
}

void Session::begin_profile() {
  if (!opt_.by_file) profiles_.emplace_back();
}

InputReport Session::add_log(const std::string& name, const std::function<void(const Sample&)>& also) {
  if (opt_.by_file) {
    profiles_.emplace_back();
    profiles_.back().name = pmclog::input_display_name(name);  // "(stdin)" for "-"
  }
  Profile* p = &profiles_.back();
  const auto input = static_cast<uint32_t>(tables_.inputs.size());
  tables_.inputs.push_back(pmclog::input_display_name(name));
  std::vector<NodeId> leaf_of;  // by Sample::stack_id, within one epoch
  std::unordered_map<uint64_t, NodeId> leaf_of_cpu;  // keep_cpus: by stack_id << 32 | cpu
  uint64_t epoch = 0;
  InputReport rep = read(name, [&](const Sample& s) {
    if (capped_at_) return;
    NodeId n = kNoNode;
    const bool cached = s.stack_id != Sample::kNoStack;
    if (cached) {
      if (s.stack_epoch != epoch) {
        leaf_of.clear();
        leaf_of_cpu.clear();
        epoch = s.stack_epoch;
      }
      if (opt_.keep_cpus) {
        auto it = leaf_of_cpu.find(uint64_t{s.stack_id} << 32 | s.cpu);
        if (it != leaf_of_cpu.end()) n = it->second;
      } else if (s.stack_id < leaf_of.size()) {
        n = leaf_of[s.stack_id];
      }
    }
    if (n == kNoNode) {
      Context c;
      c.event = s.event;
      c.comm = s.comm;
      c.pid = s.pid;
      if (opt_.keep_threads) {
        c.tid = s.tid;
        c.thread = s.thread;
      }
      if (opt_.keep_cpus) c.cpu = s.cpu;
      if (opt_.keep_inputs) c.input = input;
      const size_t nodes_before = p->nodes.size();
      n = p->root(tables_.context(c));
      for (size_t i = s.frames.size(); i-- > 0;) n = p->child(n, s.frames[i]);
      // Memory grows with nodes: a new stack costs one per frame it does not share.
      const size_t added = p->nodes.size() - nodes_before;
      stacks_ += added;
      if (added != 0 && opt_.max_stacks != 0 && stacks_ > opt_.max_stacks) {
        capped_at_ = s.offset;  // read() stops here: the profile would only be a part
        return;
      }
      if (cached && opt_.keep_cpus) {
        leaf_of_cpu.emplace(uint64_t{s.stack_id} << 32 | s.cpu, n);
      } else if (cached) {
        if (leaf_of.size() <= s.stack_id) leaf_of.resize(s.stack_id + 1, kNoNode);
        leaf_of[s.stack_id] = n;
      }
    }
    p->add(n);
    if (also) also(s);
    if (p->event_samples.size() <= s.event) p->event_samples.resize(s.event + 1);
    ++p->event_samples[s.event];
  });
  // No log (not opened, or not a byte): no profile of its own either.
  if (opt_.by_file && (!rep.opened || rep.empty_input)) profiles_.pop_back();
  return rep;
}

InputReport Session::add_log_named(const std::string& name,
                                   const std::function<void(const NamedSample&)>& named) {
  return add_log(name, [&](const Sample& s) {
    // By frame id: an index, where the symbolizer's own cache would hash every frame.
    if (frame_names_.size() < tables_.frames.size()) frame_names_.resize(tables_.frames.size());
    for (const FrameId id : s.frames)
      if (frame_names_[id] == nullptr) frame_names_[id] = &symbol(id);
    named({s, frame_names_, view()});
  });
}

InputReport Session::for_each_sample(const std::string& name,
                                     const std::function<void(const Sample&)>& f) {
  return read(name, f);
}

InputReport Session::read(const std::string& name, const std::function<void(const Sample&)>& f) {
  InputReport rep;
  rep.name = name;
  capped_at_.reset();  // a log read after a cap stops at its own first new stack
  // A streamed log (compressed, a pipe) reports the bytes it delivers: they move while a
  // resync scans data without records, where no record offset is seen for a long time.
  std::function<void(uint64_t)> on_read;
  if (opt_.progress) on_read = [this](uint64_t done) { opt_.progress(done, 0); };
  auto opened = pmclog::open_log(name, opt_.hint, nullptr, std::move(on_read));
  if (!opened) {
    rep.error = opened.error().message;
    rep.unreadable = opened.error().code == pmclog::Errc::io;
    return rep;
  }
  pmclog::OpenLog& log = opened.value();
  rep.opened = true;
  rep.compression = pmclog::compression_name(log.compression);
  if (log.detection.empty) {
    // Not "no samples": no log at all (a wrong path, an empty pipe); its ABI would be invented.
    rep.empty_input = true;
    rep.error = log.display_name + ": " + pmclog::empty_log_message(log);
    return rep;
  }
  rep.abi = pmclog::describe(log.detection.abi);
  uint64_t total = 0;
  struct stat st;
  // Offsets count decompressed bytes: a percentage only for plain files.
  if (name != "-" && log.compression == pmclog::Compression::none && stat(name.c_str(), &st) == 0)
    total = static_cast<uint64_t>(st.st_size);
  // A mapped log's records stay readable in the mapping: callchains wait in the window as
  // views, and the reader keeps the pages from the oldest one still waiting (keep_from), so
  // that resident memory stays flat without reading pages again.
  Replay replay({tables_, objects_, opt_, matches_, pool_->held}, log.reader->abi(), log.mapped,
                total, f, rep);
  // The log's system, from what is read ahead of the replay: objects are checked against it.
  LogSystemProbe system(log.reader->abi(), log.detection.container);
  objects_.set_log(&system);
  struct Unset {
    ObjectTable& t;
    ~Unset() { t.set_log(nullptr); }
  } unset{objects_};
  pmclog::LogReader& rd = *log.reader;
  uint64_t count = 0;
  constexpr uint64_t kKeepStep = 1u << 20;  // how far the kept offset may lag
  uint64_t keep_due = 0;
  for (;;) {
    pmclog::Error err;
    const pmclog::Step st2 = rd.for_each(
        [&](const pmclog::Record& r) {
          system.see(r);
          if (log.mapped && r.offset >= keep_due) {
            rd.keep_from(replay.oldest_offset(r.offset));
            keep_due = r.offset + kKeepStep;
          }
          replay.push(r);
          if ((++count & 0xFFFF) == 0 && log.mapped && opt_.progress)
            opt_.progress(r.offset, total);
          return !capped_at_;
        },
        err);
    if (st2 != pmclog::Step::error) break;
    ++rep.damaged;
    if (rep.error.empty())
      rep.error = err.message.rfind(log.display_name, 0) == 0 ? err.message
                                                              : log.display_name + ": " + err.message;
    if (!opt_.keep_going) break;
    const pmclog::SkippedRange sk = rd.skip_or_resync();
    rep.skipped_bytes += sk.to - sk.from;
    if (sk.to <= sk.from) break;
  }
  if (!capped_at_) replay.drain();
  if (capped_at_) {
    rep.stack_cap = true;
    rep.error = log.display_name + ": more than " + std::to_string(opt_.max_stacks) +
                " distinct stacks (stack-table nodes): the sample at offset " +
                std::to_string(*capped_at_) + " is one more";
    return rep;
  }
  if (const auto d = replay.depth_limit()) {
    rep.cut_samples = d->samples;
    rep.cut_depth = d->frames;
    rep.notes.push_back(depth_limit_note(log.display_name, *d));
  }
  if (opt_.progress && total != 0) opt_.progress(total, total);
  return rep;
}

void Session::symbolize() { tables_.symbolize(symbolizer_, objects_); }

void Session::look_up_symbols_ahead() {
  const auto wanted = [&](const Frame& f) {
    if (f.where.object == kNoObject) return false;
    const ObjectInfo& o = objects_.peek(f.where.object);
    return o.located && !o.file.empty() && !o.kallsyms;
  };
  // Each object's addresses to come: an object asked for many builds its symbol index before
  // the first, not after its first walks of the whole symbol table; one asked for a few
  // answers them from one walk.
  std::unordered_map<ObjectId, std::vector<uint64_t>> per_object;
  for (size_t i = looked_up_; i < tables_.frames.size(); ++i) {
    const Frame& f = tables_.frames[i];
    if (wanted(f))
      per_object[f.where.object].push_back(Symbolizer::lookup_byte(f.where.address, f.caller));
  }
  for (auto& [object, bytes] : per_object) symbolizer_.expect_lookups(object, std::move(bytes));
  for (; looked_up_ < tables_.frames.size(); ++looked_up_) {
    const Frame& f = tables_.frames[looked_up_];
    if (wanted(f)) symbolizer_.lookup(f.where.object, f.where.address, f.caller);
  }
}

const Symbolized& Session::symbol(FrameId id) {
  const Frame& fr = tables_.frames[id];
  static const Symbolized none{Unresolved::no_mapping, {}};
  if (fr.where.object == kNoObject) return none;
  return symbolizer_.lookup(fr.where.object, fr.where.address, fr.caller);
}

}  // namespace pmcprofile
