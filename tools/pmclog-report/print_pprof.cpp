// --format pprof: pprof's profile.proto, built with the protobuf library from profile.proto
// (pprof's published field numbers, written once there) and gzip-compressed with zlib.
//
// Why protobuf rather than a hand wire encoder: the schema stays in one .proto file that
// protoc checks, the generated code does the varints, lengths and UTF-8 checks, and the cost
// is small: the messages grow with distinct stacks and frames, never with samples (1M
// samples, 29k pprof samples: encoding ~1% of the run, gzip ~6%, measured with perf).
//
// The shape:
// - one sample type per event name, {event, "count"}; the profile's period is the default
//   event's reload count where its PMCALLOCATE said it (modern logs: the rate field);
// - one Sample per leaf node of the stack table (a stack in one context), locations leaf
//   first, labels pid, tid, cpu (numbers), comm, thread (named threads), file (the input);
//   each number carries a unit named like its key, because pprof reads a label with num 0
//   and no unit as absent (profile/encode.go): CPU 0 and pid 0 would lose their labels;
// - one Location per address-level frame, at the frame's address in the object's own
//   (link-time) addresses, a return address as recorded; its lines innermost first;
// - one Mapping per object, in those same object addresses (the profile merges processes
//   and logs, each with its own load bases, so run-time addresses have no single meaning);
// - unresolved frames keep their address and get one line whose function is named like
//   top's label ("libc.so.7+0x1234", "[kernel] 0xffffffff80a01234"), so that every pprof
//   view shows the rows of top and folded; every mapping says has_functions, so that pprof
//   never names them from a file of the same path on the reading machine (the log's
//   objects are found with --sysroot, here).
#include "print_pprof.h"

#include <zlib.h>

#include <algorithm>
#include <map>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include "pmclog/text.h"
#include "pmcprofile/objects.h"
#include "pmcprofile/views.h"
#include "profile.pb.h"

namespace report {
namespace {

namespace pp = perftools::profiles;

// Names from logs and ELF files are untrusted: the same escaping as top's columns, which
// also makes every string valid UTF-8, as proto3's string fields require.
std::string safe(const std::string& s) { return pmclog::terminal_safe(s); }

class StringTable {
 public:
  explicit StringTable(pp::Profile& prof) : prof_(prof) { id(""); }
  // `text` must be safe already.
  int64_t id(const std::string& text) {
    auto [it, fresh] = ids_.try_emplace(text, static_cast<int64_t>(ids_.size()));
    if (fresh) prof_.add_string_table(text);
    return it->second;
  }

 private:
  pp::Profile& prof_;
  std::unordered_map<std::string, int64_t> ids_;
};

std::string gzip(const std::string& raw) {
  // One deflate call takes at most 4 GiB (uInt): a profile that big is not a pprof file anyone reads.
  if (raw.size() > 0xFFFFFFFFu) throw std::runtime_error("pprof: the profile is over 4 GiB");
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer, as pprof expects of a profile file.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("pprof: zlib deflateInit2 failed");
  std::string out(deflateBound(&z, raw.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int st = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (st != Z_STREAM_END) throw std::runtime_error("pprof: zlib deflate failed");
  return out;
}

// What one object's mapping needs, gathered from its frames.
struct MappingUse {
  uint64_t id = 0;
  uint64_t lo = UINT64_MAX, hi = 0;  // addresses of its frames
  uint64_t samples = 0;              // samples with a frame in it (for the main binary)
  bool all_resolved = true;
};

// A profile's samples, counted with a sign: -1 for --diff's base, as pprof -diff_base
// subtracts it.
struct Part {
  const pmcprofile::Profile* profile;
  int64_t sign;
};

std::string build(std::span<const Part> parts, const pmcprofile::ProfileView& in,
                  const PprofOptions& o);

}  // namespace

std::string format_pprof(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                         const PprofOptions& o) {
  const Part part{&p, 1};
  return build({&part, 1}, in, o);
}

// pprof -diff_base's profile made at once: the new samples, and the base's with negative
// values and the label pprof::base=true, as pprof marks the base samples it merges in.
std::string format_pprof_diff(const pmcprofile::Profile& base, const pmcprofile::Profile& now,
                              const pmcprofile::ProfileView& in, const PprofOptions& o) {
  const Part parts[] = {{&now, 1}, {&base, -1}};
  return build(parts, in, o);
}

namespace {

std::string build(std::span<const Part> parts, const pmcprofile::ProfileView& in,
                  const PprofOptions& o) {
  const pmcprofile::Profile& first = *parts.front().profile;
  const pmcprofile::Tables& t = in.tables;
  const bool inlines = o.inlines;
  const bool lines = o.lines;
  pp::Profile prof;
  StringTable str(prof);

  // Sample types: the distinct events with samples here, in name order as top prints them.
  const pmcprofile::DistinctEvents& d = t.distinct_events;
  std::vector<uint64_t> samples(d.first.size(), 0);
  for (const Part& part : parts) {
    const std::vector<uint64_t> n = pmcprofile::distinct_event_samples({part.profile, 1}, t);
    for (size_t e = 0; e < n.size(); ++e) samples[e] += n[e];
  }
  std::vector<uint32_t> typed;
  for (uint32_t e : d.by_name)
    if (samples[e] != 0) typed.push_back(e);
  if (typed.empty()) typed = d.by_name;  // no samples: still say which events the logs had
  std::vector<int> type_of(d.first.size(), 0);  // by distinct event
  std::string preferred;
  uint32_t preferred_event = UINT32_MAX;
  uint64_t most = 0;
  const int64_t count = str.id("count");
  const auto add_type = [&](const std::string& name) {
    pp::ValueType* vt = prof.add_sample_type();
    vt->set_type(str.id(safe(name)));
    vt->set_unit(count);
  };
  for (uint32_t e : typed) {
    const std::string& name = t.events[d.first[e]];
    type_of[e] = prof.sample_type_size();
    add_type(name);
    if (preferred.empty() || samples[e] > most) {
      preferred = name;
      preferred_event = e;
      most = samples[e];
    }
  }
  if (typed.empty()) {
    preferred = "samples";
    add_type(preferred);
  }
  prof.set_default_sample_type(str.id(safe(preferred)));
  // Count-based sampling: a sample stands for `period` events of the PMC, the reload count of
  // its allocation; unset (0: unknown) when no log said it or two ids of the event disagree.
  prof.mutable_period_type()->set_type(str.id(safe(preferred)));
  prof.mutable_period_type()->set_unit(count);
  uint64_t period = 0;
  bool agree = true;
  for (uint32_t e = 0; e < t.events.size() && e < t.event_rates.size(); ++e) {
    if (d.of[e] != preferred_event || t.event_rates[e] == 0) continue;
    if (period != 0 && period != t.event_rates[e]) agree = false;
    period = t.event_rates[e];
  }
  if (agree && period != 0) prof.set_period(static_cast<int64_t>(period));
  for (const std::string& c : o.comments) prof.add_comment(str.id(safe(c)));

  // Functions: one per (name, source file), the names escaped once.
  std::map<std::pair<std::string, std::string>, uint64_t> function_ids;
  const auto function = [&](const std::string& name, const std::string& file) {
    auto [it, fresh] = function_ids.try_emplace({name, file}, function_ids.size() + 1);
    if (fresh) {
      pp::Function* f = prof.add_function();
      f->set_id(it->second);
      const int64_t n = str.id(safe(name));
      f->set_name(n);
      // The symbolizer keeps only the demangled name (SymbolFrame has no raw one).
      f->set_system_name(n);
      f->set_filename(str.id(safe(file)));
    }
    return it->second;
  };

  // Mappings, by object; locations, by address-level frame (FrameId), made when first used.
  // pprof's Location is an address, so the stacks are walked by node here, not by function
  // (for_each_function_stack drops the addresses).
  std::unordered_map<pmcprofile::ObjectId, MappingUse> mappings;
  std::vector<uint64_t> location_of(t.frames.size(), 0);
  const auto location = [&](pmcprofile::FrameId fid) {
    if (location_of[fid] != 0) return location_of[fid];
    const pmcprofile::Frame& fr = t.frames[fid];
    pp::Location* loc = prof.add_location();
    location_of[fid] = static_cast<uint64_t>(prof.location_size());
    loc->set_id(location_of[fid]);
    loc->set_address(fr.where.address);
    const auto& refs = t.frame_functions[fid];
    const bool resolved =
        !refs.empty() && t.functions[refs.front().id].why == pmcprofile::Unresolved::none;
    if (fr.where.object != pmcprofile::kNoObject) {
      auto [it, fresh] = mappings.try_emplace(fr.where.object);
      if (fresh) it->second.id = mappings.size();
      MappingUse& m = it->second;
      loc->set_mapping_id(m.id);
      m.lo = std::min(m.lo, fr.where.address);
      m.hi = std::max(m.hi, fr.where.address);
      m.all_resolved = m.all_resolved && resolved;
    }
    if (!resolved) {
      pp::Line* l = loc->add_line();
      l->set_function_id(function(refs.empty() ? std::string() : t.functions[refs.front().id].name,
                                  std::string()));
      return location_of[fid];
    }
    // The frame's functions, outermost first; pprof wants the innermost first.
    for (size_t i = refs.size(); i-- > 0;) {
      if (refs[i].inlined() && !inlines) continue;
      const pmcprofile::Function& fn = t.functions[refs[i].id];
      pp::Line* l = loc->add_line();
      l->set_function_id(function(fn.name, fn.file));
      l->set_line(fn.line);
    }
    return location_of[fid];
  };

  // The keys of the number labels are their units too: the unit pprof itself assumes for a
  // key without one, so its views name them as before, and a 0 is kept.
  const int64_t k_pid = str.id("pid"), k_tid = str.id("tid"), k_cpu = str.id("cpu");
  const int64_t k_comm = str.id("comm"), k_thread = str.id("thread"), k_file = str.id("file");
  const int64_t this_file = first.name.empty() ? 0 : str.id(safe(first.name));
  const int types = prof.sample_type_size();
  std::vector<pmcprofile::ObjectId> objects_seen;
  for (const Part& part : parts) {
    const pmcprofile::Profile& p = *part.profile;
    for (pmcprofile::NodeId leaf = 0; leaf < p.nodes.size(); ++leaf) {
      const uint64_t n = p.self[leaf];
      if (n == 0 || p.is_root(leaf)) continue;
      pp::Sample* smp = prof.add_sample();
      objects_seen.clear();
      pmcprofile::NodeId at = leaf;
      for (; !p.is_root(at); at = p.nodes[at].parent) {
        const pmcprofile::FrameId fid = p.nodes[at].value;
        smp->add_location_id(location(fid));
        const pmcprofile::ObjectId o = t.frames[fid].where.object;
        if (o != pmcprofile::kNoObject &&
            std::find(objects_seen.begin(), objects_seen.end(), o) == objects_seen.end()) {
          objects_seen.push_back(o);
          mappings[o].samples += n;
        }
      }
      const pmcprofile::Context& c = t.context_of(p.nodes[at].value);
      const int type = type_of[d.of[c.event]];
      for (int k = 0; k < types; ++k)
        smp->add_value(k == type ? part.sign * static_cast<int64_t>(n) : 0);
      const auto num = [&](int64_t key, int64_t v) {
        pp::Label* l = smp->add_label();
        l->set_key(key);
        l->set_num(v);
        l->set_num_unit(key);
      };
      const auto text = [&](int64_t key, int64_t v) {
        pp::Label* l = smp->add_label();
        l->set_key(key);
        l->set_str(v);
      };
      num(k_pid, c.pid);
      num(k_tid, c.tid);
      text(k_comm, str.id(safe(t.comms[c.comm])));
      if (c.thread != 0 && !t.threads[c.thread].empty()) text(k_thread, str.id(safe(t.threads[c.thread])));
      if (c.cpu != pmcprofile::Context::kNoCpu) num(k_cpu, c.cpu);
      if (!p.name.empty()) text(k_file, this_file);
      else if (c.input != pmcprofile::Context::kNoInput && c.input < t.inputs.size())
        text(k_file, str.id(safe(t.inputs[c.input])));
      if (part.sign < 0) text(str.id("pprof::base"), str.id("true"));
    }
  }

  // Mappings, the main binary first (pprof's rule for mapping[0]): of the programs a
  // PROCEXEC named, else of the user objects that look like programs (ET_EXEC, or with a
  // PT_INTERP, which glibc's libc.so.6 has too), the one most samples pass through.
  struct Ordered {
    pmcprofile::ObjectId object;
    const MappingUse* use;
    int rank;
  };
  std::vector<Ordered> order;
  for (const auto& [obj, use] : mappings) {
    const pmcprofile::ObjectInfo& info = in.objects.peek(obj);  // looked up by the symbolizer
    const bool program = !info.kernel && info.layout.valid &&
                         (info.layout.type == 2 || !info.layout.interp.empty());
    const int rank = info.kernel ? 3 : info.execed ? 0 : program ? 1 : 2;
    order.push_back({obj, &use, rank});
  }
  std::sort(order.begin(), order.end(), [](const Ordered& a, const Ordered& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    if (a.use->samples != b.use->samples) return a.use->samples > b.use->samples;
    return a.use->id < b.use->id;
  });
  for (const Ordered& ord : order) {
    const pmcprofile::ObjectInfo& info = in.objects.peek(ord.object);
    const MappingUse& use = *ord.use;
    pp::Mapping* m = prof.add_mapping();
    m->set_id(use.id);
    // Object addresses: the executable segments when the file was read, else the range of
    // the frames (offsets from the mapped page when the file is missing; kallsyms: absolute).
    uint64_t lo = use.lo & ~uint64_t{0xFFF}, hi = use.hi + 1;
    uint64_t offset = 0;
    if (info.layout.valid) {
      lo = std::min(lo, info.layout.exec_lo);
      hi = std::max(hi, info.layout.exec_hi);
      if (info.layout.exec_offset_known && lo == info.layout.exec_lo) offset = info.layout.exec_offset;
      if (!info.layout.build_id.empty()) m->set_build_id(str.id(info.layout.build_id));
    } else if (!(info.kernel && pmcprofile::is_kernel_image_path(info.path))) {
      lo = 0;  // a missing object's frames are offsets in the mapping: it starts at 0
    }  // a kernel image's frames keep their run-time addresses (kallsyms, or none found)
    m->set_memory_start(lo);
    m->set_memory_limit(hi);
    m->set_file_offset(offset);
    m->set_filename(str.id(safe(info.path)));
    // Every location has a function line (an unresolved one is named like top's label):
    // pprof re-symbolizes a mapping without has_functions from a file of that path on the
    // machine that reads the profile, which for a log of another system is another program.
    m->set_has_functions(true);
    m->set_has_filenames(use.all_resolved && lines);
    m->set_has_line_numbers(use.all_resolved && lines);
    m->set_has_inline_frames(use.all_resolved && inlines);
  }

  std::string raw;
  if (!prof.SerializeToString(&raw)) throw std::runtime_error("pprof: the profile could not be encoded");
  return gzip(raw);
}

}  // namespace

}  // namespace report
