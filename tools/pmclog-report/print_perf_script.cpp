#include "print_perf_script.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pmclog/text.h"
#include "pmcprofile/views.h"

namespace report {
namespace {

// perf's name for an object: the kernel image is [kernel.kallsyms], a kernel module
// [name] (its file name without .ko), a user object its path; no object: [unknown].
std::string dso_name(const pmcprofile::Frame& f, pmcprofile::ObjectTable& objects) {
  if (f.where.object == pmcprofile::kNoObject) return "[unknown]";
  const pmcprofile::ObjectInfo& o = objects.peek(f.where.object);
  if (f.where.kernel || o.kernel) {
    if (pmcprofile::is_kernel_image_path(o.path) || o.path == "[kernel]") return "[kernel.kallsyms]";
    std::string n = o.name;
    if (n.size() > 3 && n.compare(n.size() - 3, 3, ".ko") == 0) n.resize(n.size() - 3);
    std::string out = "[";
    out += pmclog::terminal_safe(n);
    out += ']';
    return out;
  }
  return pmclog::terminal_safe(o.path);
}

// The samples of a profile in time order, each as perf script prints it.
class Writer {
 public:
  Writer(const pmcprofile::Profile& p, pmcprofile::Session& s, const Config& cfg)
      : p_(p), s_(s), t_(s.tables()), inlines_(cfg.profile.symbols.inlines),
        frame_text_(t_.frames.size()), made_(t_.frames.size(), false),
        events_(t_.events.size()), comms_(t_.comms.size()) {
    for (size_t e = 0; e < events_.size(); ++e) events_[e] = pmclog::terminal_safe(t_.events[e]);
    for (size_t c = 0; c < comms_.size(); ++c) comms_[c] = pmclog::terminal_safe(t_.comms[c]);
    // perf script prints in time order. The timeline is in replay order, which for legacy
    // logs is file order: one buffer per CPU or owner after another.
    order_.resize(p.timeline.size());
    for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
    if (!std::is_sorted(p.timeline.begin(), p.timeline.end(),
                        [](const auto& a, const auto& b) { return a.time < b.time; }))
      std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
        return p.timeline[a].time < p.timeline[b].time;
      });
  }

  size_t samples() const { return order_.size(); }

  // Appends the i-th sample (in time order) to `out`.
  void append(size_t i, std::string& out) {
    const pmcprofile::TimedSample& smp = p_.timeline[order_[i]];
    const pmcprofile::Context& c = t_.context_of(p_.context_of(smp.leaf));
    // perf script -F comm,pid,tid,cpu,time,event,ip,sym,dso with a callchain:
    // "COMM PID/TID [CPU] SECS.USECS: EVENT: " (builtin-script.c perf_sample__fprintf_start).
    const std::string& comm = comms_[c.comm];
    if (comm.empty()) {
      out += ':';  // as perf names a thread it never saw named
      out += std::to_string(c.pid);
    } else {
      out += comm;
    }
    const double ns = std::max(0.0, std::round(smp.time * 1e9));
    const auto total_ns = static_cast<unsigned long long>(ns);
    char buf[128];
    std::snprintf(buf, sizeof buf, " %5d/%-5d [%03u] %5llu.%06llu: ", static_cast<int32_t>(c.pid),
                  static_cast<int32_t>(smp.tid), smp.cpu, total_ns / 1000000000ull,
                  total_ns % 1000000000ull / 1000ull);
    out += buf;
    out += events_[c.event];
    out += ": \n";
    for (pmcprofile::NodeId n = smp.leaf; !p_.is_root(n); n = p_.nodes[n].parent)
      out += frame_lines(p_.nodes[n].value);
    out += '\n';
  }

 private:
  // The "\t ADDR SYM (DSO)\n" lines of a frame, innermost function first, made once.
  const std::string& frame_lines(pmcprofile::FrameId id) {
    if (made_[id]) return frame_text_[id];
    made_[id] = true;
    const pmcprofile::Frame& f = t_.frames[id];
    const auto& refs = t_.frame_functions[id];
    const pmcprofile::Symbolized& sym = s_.symbol(id);
    const std::string dso = dso_name(f, s_.objects());
    char addr[32];
    std::snprintf(addr, sizeof addr, "\t%16llx ", static_cast<unsigned long long>(f.where.address));
    std::string& out = frame_text_[id];
    // refs are outermost first; perf prints the innermost inlined call first.
    for (size_t i = refs.size(); i-- > 0;) {
      if (refs[i].inlined && !inlines_) continue;
      const pmcprofile::Function& fn = t_.functions[refs[i].id];
      out += addr;
      if (fn.why != pmcprofile::Unresolved::none) {
        out += "[unknown]";  // perf's word for a frame without a symbol
      } else if (sym.frames.size() == refs.size()) {
        // The symbol's own name (without the " (file:line)" that --lines adds), +0xOFFSET.
        out += pmclog::terminal_safe(sym.frames[i].name);
        char off[24];
        std::snprintf(off, sizeof off, "+0x%llx", static_cast<unsigned long long>(sym.frames[i].offset));
        out += off;
      } else {
        out += pmclog::terminal_safe(fn.name);
      }
      out += " (";
      out += dso;
      out += ")\n";
    }
    return out;
  }

  const pmcprofile::Profile& p_;
  pmcprofile::Session& s_;
  const pmcprofile::Tables& t_;
  bool inlines_;
  std::vector<std::string> frame_text_;
  std::vector<bool> made_;
  std::vector<std::string> events_, comms_;
  std::vector<uint32_t> order_;
};

}  // namespace

void write_perf_script(const pmcprofile::Profile& p, pmcprofile::Session& s, const Config& cfg,
                       const std::function<void(std::string_view)>& sink) {
  Writer w(p, s, cfg);
  std::string chunk;
  chunk.reserve(1u << 21);
  for (size_t i = 0; i < w.samples(); ++i) {
    w.append(i, chunk);
    if (chunk.size() >= (1u << 20)) {
      sink(chunk);
      chunk.clear();
    }
  }
  if (!chunk.empty()) sink(chunk);
}

std::string format_perf_script(const pmcprofile::Profile& p, pmcprofile::Session& s,
                               const Config& cfg) {
  std::string out;
  write_perf_script(p, s, cfg, [&](std::string_view piece) {
    // Grown by half each time rather than doubled: the text can be gigabytes.
    if (out.capacity() < out.size() + piece.size()) out.reserve((out.size() + piece.size()) * 3 / 2);
    out += piece;
  });
  return out;
}

}  // namespace report
