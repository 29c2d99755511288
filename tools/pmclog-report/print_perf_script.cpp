#include "print_perf_script.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pmclog/text.h"
#include "pmcprofile/kallsyms.h"

namespace report {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

// printf's %*llu (fill ' ') and %0*llu (fill '0'), without printf's cost per call: a
// sample's text is a dozen numbers and perf-script prints millions of samples.
void put_decimal(std::string& out, uint64_t v, size_t width, char fill = ' ') {
  char b[20];
  size_t n = 0;
  do {
    b[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  if (width > n) out.append(width - n, fill);
  while (n != 0) out += b[--n];
}

// A pid or tid as perf prints a pid_t: %5d (right) or %-5d (left); a negative one as such.
void put_id(std::string& out, uint32_t id, bool left) {
  const auto v = static_cast<int32_t>(id);
  if (v < 0) {
    char b[16];
    std::snprintf(b, sizeof b, left ? "%-5d" : "%5d", v);
    out += b;
    return;
  }
  if (left) {
    const size_t at = out.size();
    put_decimal(out, id, 0);
    if (out.size() - at < 5) out.append(5 - (out.size() - at), ' ');
  } else {
    put_decimal(out, id, 5);
  }
}

// printf's "\t%16llx".
void put_address(std::string& out, uint64_t v) {
  char b[17];
  b[0] = '\t';
  size_t at = 17;
  do {
    b[--at] = "0123456789abcdef"[v & 0xF];
    v >>= 4;
  } while (v != 0 && at > 1);
  std::fill(b + 1, b + at, ' ');
  out.append(b, sizeof b);
}

// perf's name for an object: the kernel image is [kernel.kallsyms], a kernel module
// [name] (its file name without .ko), a user object its path; no object: [unknown].
std::string dso_name(const pmcprofile::Frame& f, const pmcprofile::ObjectTable& objects) {
  if (f.where.object == pmcprofile::kNoObject) return "[unknown]";
  const pmcprofile::ObjectInfo& o = objects.peek(f.where.object);
  if (f.where.kernel || o.kernel) {
    if (pmcprofile::is_kernel_image_path(o.path))
      return std::string(pmcprofile::kRunningKernelObject);
    std::string n = o.name;
    if (n.size() > 3 && n.compare(n.size() - 3, 3, ".ko") == 0) n.resize(n.size() - 3);
    std::string out = "[";
    out += pmclog::terminal_safe(n);
    out += ']';
    return out;
  }
  return pmclog::terminal_safe(o.path);
}

}  // namespace

PerfScriptWriter::PerfScriptWriter(const PerfScriptOptions& o,
                                   std::function<void(std::string_view)> sink)
    : inlines_(o.inlines), sink_(std::move(sink)) {
  chunk_.reserve(kChunk + (kChunk >> 1));
}

const std::string& PerfScriptWriter::safe_text(Names& cache, const std::vector<std::string>& from,
                                               uint32_t id) {
  // Tables grow while the logs are read, and an event met before its allocation record is
  // named by it later: a name is escaped again when it is not the one escaped before.
  if (cache.raw.size() < from.size()) {
    cache.raw.resize(from.size());
    cache.safe.resize(from.size());
  }
  if (cache.safe[id].empty() || cache.raw[id] != from[id]) {
    cache.raw[id] = from[id];
    cache.safe[id] = pmclog::terminal_safe(from[id]);
  }
  return cache.safe[id];
}

void PerfScriptWriter::sample(const pmcprofile::NamedSample& named) {
  const pmcprofile::Sample& smp = named.sample;
  const pmcprofile::Tables& t = named.view.tables;
  // perf script -F comm,pid,tid,cpu,time,period,event,ip,sym,dso with a callchain:
  // "COMM PID/TID [CPU] SECS.USECS: PERIOD EVENT: " (perf's builtin-script.c:
  // perf_sample__fprintf_start, then "%10" PRIu64 " " for the period).
  const std::string& comm = safe_text(comms_, t.comms, smp.comm);
  if (comm.empty()) {
    chunk_ += ':';  // as perf names a thread it never saw named
    chunk_ += std::to_string(smp.pid);
  } else {
    chunk_ += comm;
  }
  const double ns = std::max(0.0, std::round(smp.time * 1e9));
  const auto total_ns = static_cast<uint64_t>(ns);
  // A sample stands for the reload count of its PMC's allocation (events per sample); where
  // the log does not say it (legacy logs, frequency mode), for one.
  const uint64_t rate = smp.event < t.event_rates.size() ? t.event_rates[smp.event] : 0;
  chunk_ += ' ';
  put_id(chunk_, smp.pid, false);
  chunk_ += '/';
  put_id(chunk_, smp.tid, true);
  chunk_ += " [";
  put_decimal(chunk_, smp.cpu, 3, '0');
  chunk_ += "] ";
  put_decimal(chunk_, total_ns / 1000000000u, 5);
  chunk_ += '.';
  put_decimal(chunk_, total_ns % 1000000000u / 1000u, 6, '0');  // microseconds, truncated
  chunk_ += ": ";
  put_decimal(chunk_, rate != 0 ? rate : 1, 10);
  chunk_ += ' ';
  chunk_ += safe_text(events_, t.events, smp.event);
  chunk_ += ": \n";
  // Each frame at the address the log holds, the process's virtual address, as perf
  // prints a callchain's ip (perf 6.5 on; perf 6.1 printed the offset in the object).
  for (size_t k = 0; k < smp.frames.size(); ++k) {
    const std::string& text = frame_text(named, k);
    for (size_t at = 0; at < text.size();) {  // one line per function of the frame
      const size_t end = text.find('\n', at) + 1;
      put_address(chunk_, smp.addresses[k]);
      chunk_.append(text, at, end - at);
      at = end;
    }
  }
  chunk_ += '\n';
  if (chunk_.size() >= kChunk) {
    sink_(chunk_);
    chunk_.clear();
  }
}

void PerfScriptWriter::finish() {
  if (!chunk_.empty()) sink_(chunk_);
  chunk_.clear();
}

const std::string& PerfScriptWriter::frame_text(const pmcprofile::NamedSample& named, size_t k) {
  const pmcprofile::FrameId id = named.sample.frames[k];
  if (id >= made_.size()) {
    made_.resize(id + 1, false);
    frame_text_.resize(id + 1);
  }
  if (made_[id]) return frame_text_[id];
  made_[id] = true;
  const pmcprofile::Frame& f = named.view.tables.frames[id];
  const pmcprofile::Symbolized& sym = named.name(k);
  const std::string dso = " (" + dso_name(f, named.view.objects) + ")\n";
  std::string& out = frame_text_[id];
  if (sym.frames.empty()) {
    out = " [unknown]" + dso;  // perf's word for a frame without a symbol
    return out;
  }
  // The symbolizer's frames are outermost first; perf prints the innermost inlined call first.
  for (size_t i = sym.frames.size(); i-- > 0;) {
    const pmcprofile::SymbolFrame& sf = sym.frames[i];
    if (sf.inlined() && !inlines_) continue;
    // The symbol's own name (without the " (file:line)" that --lines adds), +0xOFFSET.
    out += ' ';
    out += pmclog::terminal_safe(sf.name);
    char off[24];
    std::snprintf(off, sizeof off, "+0x%llx", static_cast<unsigned long long>(sf.offset));
    out += off;
    out += dso;
  }
  return out;
}

}  // namespace report
