#include "print_top.h"

#include <algorithm>
#include <cstdio>

#include "pmclog/text.h"
#include "pmcprofile/objects.h"
#include "pmcprofile/views.h"

namespace report {
namespace {

std::string pct(uint64_t n, uint64_t of) {
  char b[16];
  std::snprintf(b, sizeof b, "%.2f%%", of == 0 ? 0.0 : 100.0 * static_cast<double>(n) / static_cast<double>(of));
  return b;
}

}  // namespace

void append_key_heads(std::vector<std::string>& head, const pmcprofile::GroupBy& by) {
  if (by.comm) head.push_back("Command");
  if (by.pid) head.push_back("Pid");
  if (by.tid) head.push_back("Tid");
  if (by.thread) head.push_back("Thread");
  if (by.object) head.push_back("Object");
  if (by.symbol) head.push_back("Symbol");
}

void append_key_cells(std::vector<std::string>& c, const pmcprofile::TopRow& r,
                      const pmcprofile::ProfileView& in, const pmcprofile::GroupBy& by,
                      const pmcprofile::FunctionLabels& label) {
  const pmcprofile::Tables& t = in.tables;
  // Names from the log and from ELF files are untrusted text: escaped.
  if (by.comm) c.push_back(pmclog::terminal_safe(t.comms[r.comm]));
  if (by.pid) c.push_back(std::to_string(r.pid));
  if (by.tid) c.push_back(std::to_string(r.tid));
  if (by.thread) {
    // perf's comm-tid: the name THR_CREATE gave the thread, else the tid alone.
    const std::string& name = t.threads[r.thread];
    c.push_back(name.empty() ? std::to_string(r.tid)
                             : pmclog::terminal_safe(name) + ":" + std::to_string(r.tid));
  }
  if (by.object)
    c.push_back(r.object == pmcprofile::kNoObject
                    ? "[unknown]"
                    : pmclog::terminal_safe(in.objects.peek(r.object).name));
  if (by.symbol) c.push_back(pmclog::terminal_safe(label(r.function)));
}

std::string table_text(const std::vector<std::string>& head,
                       const std::vector<std::vector<std::string>>& rows, size_t numbers) {
  std::vector<size_t> w(head.size());
  for (size_t c = 0; c < head.size(); ++c) {
    w[c] = head[c].size();
    for (const auto& row : rows) w[c] = std::max(w[c], row[c].size());
  }
  std::string out;
  // Appended in place: a profile of many distinct functions prints a row per function.
  const auto emit = [&](const std::vector<std::string>& row, bool header) {
    out += header ? "# " : "  ";
    for (size_t c = 0; c < row.size(); ++c) {
      if (c != 0) out += "  ";
      const size_t pad = w[c] - row[c].size();
      if (c < numbers) out.append(pad, ' ');
      out += row[c];
      if (c >= numbers && c + 1 != row.size()) out.append(pad, ' ');
    }
    out += '\n';
  };
  emit(head, true);
  for (const auto& row : rows) emit(row, false);
  return out;
}

std::string format_top(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                       const TopOptions& o) {
  const pmcprofile::Tables& t = in.tables;
  const pmcprofile::GroupBy& by = o.by;
  const auto rows = pmcprofile::top_rows(p, t, in.objects, by, o.sort);
  const pmcprofile::FunctionLabels label(t);
  std::string out;
  if (!p.name.empty()) out += "# Input: " + pmclog::terminal_safe(p.name) + "\n";
  if (rows.empty()) {
    out += "# No samples.\n";
    return out;
  }
  size_t i = 0;
  while (i < rows.size()) {
    const uint32_t ev = rows[i].event;
    size_t j = i;
    while (j < rows.size() && rows[j].event == ev) ++j;
    const uint64_t total = pmcprofile::event_samples(p, t, ev);
    const size_t shown = o.limit == 0 ? j - i : std::min(o.limit, j - i);
    // Column widths from what is shown.
    std::vector<std::vector<std::string>> cells;
    for (size_t k = i; k < i + shown; ++k) {
      const pmcprofile::TopRow& r = rows[k];
      std::vector<std::string> c{std::to_string(r.self), pct(r.self, total),
                                 std::to_string(r.total), pct(r.total, total)};
      append_key_cells(c, r, in, by, label);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> head{"Self", "Self%", "Total", "Total%"};
    append_key_heads(head, by);
    out += "# Event: " + t.events[ev] + ", " + std::to_string(total) + " samples";
    if (shown < j - i) out += " (top " + std::to_string(shown) + " of " + std::to_string(j - i) + " rows)";
    out += "\n";
    out += table_text(head, cells, 4);
    out += "\n";
    i = j;
  }
  return out;
}

std::string format_unresolved(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                              const UnresolvedOptions& o) {
  const auto u = pmcprofile::summarize_unresolved(p, in.tables);
  std::string out;
  const auto list = [&](const uint64_t* counts) {
    std::string l;
    for (int k = 1; k < pmcprofile::kUnresolvedKinds; ++k) {
      if (counts[k] == 0) continue;
      l += l.empty() ? "" : ", ";
      l += std::to_string(counts[k]) + " " + pmcprofile::unresolved_reason(static_cast<pmcprofile::Unresolved>(k));
    }
    return l;
  };
  uint64_t leaf = 0, frames = 0;
  for (int k = 1; k < pmcprofile::kUnresolvedKinds; ++k) {
    leaf += u.leaf_samples[k];
    frames += u.frame_count[k];
  }
  out += "# Unresolved: " + std::to_string(leaf) + " of " + std::to_string(u.samples) +
         " samples (leaf frame)";
  if (leaf != 0) out += ": " + list(u.leaf_samples);
  out += "; " + std::to_string(frames) + " of " + std::to_string(u.frames) + " frames";
  if (frames != 0) out += ": " + list(u.frame_count);
  out += "\n";
  constexpr size_t kListed = 10;
  for (size_t i = 0; i < u.objects.size() && i < kListed; ++i) {
    const auto& obj = u.objects[i];
    const auto& info = in.objects.peek(obj.id);
    // The log names the path: escaped, as it may reach a terminal (stderr without top).
    out += "#   " + (info.path.empty() ? std::string("(no name)") : pmclog::display_path(info.path)) +
           ": " + std::to_string(obj.frames) + " frames, " + pmcprofile::unresolved_reason(obj.why);
    if (obj.why == pmcprofile::Unresolved::object_missing) {
      // A file was found but is not the log's object: say why (the host's files are
      // never another system's).
      if (info.missing == pmcprofile::Missing::refused) out += ": " + info.refused;
      // A kernel image is named by --kernel (or found under the sysroot, as any path).
      if (info.kernel && pmcprofile::is_kernel_image_path(info.path) &&
          (!o.sysroot || o.kernel_file))
        out += !o.kernel_file ? " (give --kernel FILE?)" : " (not the --kernel file?)";
      else if (!info.path.empty() && info.path[0] == '/')
        out += !o.sysroot ? " (give --sysroot?)"
               : info.missing == pmcprofile::Missing::refused ? " (the sysroot's file is not the log's)"
                                                                : " (not under the sysroot)";
    }
    out += "\n";
  }
  if (u.objects.size() > kListed) {
    // The rest still says why: frames by reason over the objects not listed.
    uint64_t rest[pmcprofile::kUnresolvedKinds] = {}, n = 0;
    for (size_t i = kListed; i < u.objects.size(); ++i) {
      rest[static_cast<int>(u.objects[i].why)] += u.objects[i].frames;
      n += u.objects[i].frames;
    }
    out += "#   ... and " + std::to_string(u.objects.size() - kListed) + " more objects: " +
           std::to_string(n) + " frames, " + list(rest) + "\n";
  }
  return out;
}

}  // namespace report
