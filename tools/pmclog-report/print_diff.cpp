#include "print_diff.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "ci_text.h"
#include "pmclog/text.h"
#include "pmcprofile/objects.h"
#include "print_top.h"

namespace report {
namespace {

using pmcprofile::DiffMeasure;
using pmcprofile::DiffPresence;
using pmcprofile::DiffRow;
using pmcprofile::ProfileView;

// Numbers as printf's %.2f, %+.2f and %.3g print them, through to_chars: a diff prints
// several per row, and printf's parsing of the format cost more than the rest of a row.
std::string number(double v, std::chars_format form, int precision, bool plus = false) {
  char b[64];
  char* at = b;
  if (v == 0) v = 0;  // -0 prints as 0
  if (plus && v >= 0) *at++ = '+';
  return std::string(b, std::to_chars(at, b + sizeof b, v, form, precision).ptr);
}
std::string fixed(double v) { return number(v, std::chars_format::fixed, 2); }
std::string pct(double v) { return fixed(v) + "%"; }
std::string signed_points(double v) { return number(v, std::chars_format::fixed, 2, true); }
std::string general(double v, int precision) {
  return number(v, std::chars_format::general, precision);
}
std::string ratio_text(double r) { return std::isinf(r) ? "new" : general(r, 3) + "x"; }

const char* presence_text(DiffPresence p) {
  switch (p) {
    case DiffPresence::both: return "both";
    case DiffPresence::base_only: return "base only";
    case DiffPresence::new_only: return "new only";
  }
  return "?";
}

std::string summary_line(const pmcprofile::DiffResult& d) {
  return std::to_string(d.tested) + " rows tested; " + std::to_string(d.significant_self) +
         " self and " + std::to_string(d.significant_total) +
         " total changes significant at a false discovery rate of " + general(d.alpha, 6) +
         " (Benjamini-Hochberg)";
}

// A side that mixes periods is weighted by them: said once in the event's heading.
std::string periods_text(const char* side, const std::vector<uint64_t>& periods) {
  if (periods.empty()) return {};
  std::string s = std::string("; ") + side + " mixes periods";
  for (size_t i = 0; i < periods.size(); ++i) {
    s += i ? ", " : " ";
    s += std::to_string(periods[i]);
  }
  return s + ": its shares are of samples x period";
}

std::string format_top(const DiffReport& rep, const ProfileView& in, const Config& cfg) {
  const pmcprofile::DiffResult& d = rep.result;
  const pmcprofile::Tables& t = in.tables;
  const pmcprofile::FunctionLabels label(t);
  std::string out;
  size_t i = 0;
  for (const pmcprofile::DiffEvent& e : d.events) {
    size_t j = i;
    while (j < d.rows.size() && d.rows[j].key.event == e.event) ++j;
    const size_t shown = cfg.limit == 0 ? j - i : std::min(cfg.limit, j - i);
    out += "# Event: " + pmclog::terminal_safe(t.events[e.event]) + ": base " +
           std::to_string(e.base_samples) + " samples, new " + std::to_string(e.new_samples) +
           " samples";
    if (e.presence == DiffPresence::base_only) out += " (only in the base: not tested)";
    if (e.presence == DiffPresence::new_only) out += " (only in the new logs: not tested)";
    out += periods_text("base", e.base_periods) + periods_text("new", e.new_periods);
    if (shown < j - i) out += " (top " + std::to_string(shown) + " of " + std::to_string(j - i) + " rows)";
    out += "\n";
    std::vector<std::string> head{"Base self%", "New self%", "Self pts", "Base total%", "New total%",
                                  "Total pts", "Ratio"};
    const size_t numbers = head.size();
    append_key_heads(head, cfg.by);
    std::vector<std::vector<std::string>> cells;
    for (size_t k = i; k < i + shown; ++k) {
      const DiffRow& r = d.rows[k];
      const auto delta = [](const DiffMeasure& m) {
        return signed_points(m.delta) + (m.significant ? "*" : " ");
      };
      const DiffMeasure& sorted = cfg.sort == pmcprofile::SortKey::total ? r.total : r.self;
      std::vector<std::string> c{pct(r.self.base_share), pct(r.self.new_share), delta(r.self),
                                 pct(r.total.base_share), pct(r.total.new_share), delta(r.total),
                                 ratio_text(sorted.ratio)};
      append_key_cells(c, r.key, in, cfg.by, label);
      cells.push_back(std::move(c));
    }
    out += table_text(head, cells, numbers);
    out += "\n";
    i = j;
  }
  if (d.rows.empty()) out += "# No samples.\n";
  out += "# " + summary_line(d) + "; * marks a significant change\n";
  return out;
}

void json_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";  // a ratio from a zero share: JSON has no infinity
    return;
  }
  char b[64];
  out.append(b, std::to_chars(b, b + sizeof b, v).ptr);  // the shortest text that reads back as v
}

void json_measure(std::string& out, const DiffMeasure& m) {
  out += "{\"base\":" + std::to_string(m.base) + ",\"new\":" + std::to_string(m.now);
  const std::pair<const char*, double> numbers[] = {{"base_share", m.base_share},
                                                     {"new_share", m.new_share},
                                                     {"delta", m.delta},
                                                     {"ratio", m.ratio},
                                                     {"p", m.p},
                                                     {"q", m.q}};
  for (const auto& [name, v] : numbers) {
    out += ",\"";
    out += name;
    out += "\":";
    json_number(out, v);
  }
  out += std::string(",\"significant\":") + (m.significant ? "true" : "false") + "}";
}

void json_field(std::string& out, const char* name, const std::string& value) {
  out += ",\"";
  out += name;
  out += "\":";
  pmclog::append_json_string(out, value);
}

std::string format_json(const DiffReport& rep, const ProfileView& in, const Config& cfg) {
  const pmcprofile::DiffResult& d = rep.result;
  std::string out = "{\"alpha\":";
  json_number(out, d.alpha);
  out += ",\"tested\":" + std::to_string(d.tested) +
         ",\"significant_self\":" + std::to_string(d.significant_self) +
         ",\"significant_total\":" + std::to_string(d.significant_total) + ",\"events\":[";
  for (size_t i = 0; i < d.events.size(); ++i) {
    const auto& e = d.events[i];
    out += i ? ",{\"event\":" : "{\"event\":";
    pmclog::append_json_string(out, in.tables.events[e.event]);
    out += ",\"base_samples\":" + std::to_string(e.base_samples) +
           ",\"new_samples\":" + std::to_string(e.new_samples) + ",\"presence\":\"" +
           presence_text(e.presence) + "\"";
    // The periods a side mixes (its shares are of samples x period); empty: plain samples.
    for (const auto& [name, periods] : {std::pair{"base_periods", &e.base_periods},
                                        std::pair{"new_periods", &e.new_periods}}) {
      out += std::string(",\"") + name + "\":[";
      for (size_t k = 0; k < periods->size(); ++k) {
        if (k != 0) out += ',';
        out += std::to_string((*periods)[k]);
      }
      out += "]";
    }
    out += "}";
  }
  out += "],\"rows\":[";
  for (size_t i = 0; i < d.rows.size(); ++i) {
    const DiffRow& r = d.rows[i];
    const RowNames n = row_names(r, in);
    out += i ? ",\n{" : "\n{";
    out += "\"event\":";
    pmclog::append_json_string(out, n.event);
    if (cfg.by.comm) json_field(out, "comm", n.comm);
    if (cfg.by.pid) out += ",\"pid\":" + std::to_string(r.key.pid);
    if (cfg.by.tid || cfg.by.thread) out += ",\"tid\":" + std::to_string(r.key.tid);
    if (cfg.by.thread) json_field(out, "thread", in.tables.threads[r.key.thread]);
    if (cfg.by.object) json_field(out, "object", n.object);
    if (cfg.by.symbol) json_field(out, "symbol", n.symbol);
    out += std::string(",\"presence\":\"") + presence_text(r.presence) + "\"";
    out += ",\"base_samples\":" + std::to_string(r.base_samples) +
           ",\"new_samples\":" + std::to_string(r.new_samples) + ",\"self\":";
    json_measure(out, r.self);
    out += ",\"total\":";
    json_measure(out, r.total);
    out += "}";
  }
  out += "\n]}\n";
  return out;
}

std::string row_text(const DiffRow& r, const ProfileView& in, const Config& cfg) {
  std::string s = pmclog::terminal_safe(in.tables.events[r.key.event]) + ":";
  std::vector<std::string> cells;
  append_key_cells(cells, r.key, in, cfg.by, pmcprofile::FunctionLabels(in.tables));
  for (const auto& c : cells) s += " " + c;
  return s;
}

std::string change_text(const DiffMeasure& m, const char* what) {
  return std::string(what) + " " + pct(m.base_share) + " -> " + pct(m.new_share) + " (" +
         signed_points(m.delta) + " points, " + ratio_text(m.ratio) + ", q=" +
         general(m.q, 3) + ")";
}

std::string format_github(const DiffReport& rep, const ProfileView& in, const Config& cfg) {
  std::string out;
  for (const Tripped& t : rep.tripped)
    for (size_t i : t.rows) {
      const DiffRow& r = rep.result.rows[i];
      out += "::error title=" +
             pmclog::tools::github_property("pmclog-report --fail-if " + t.gate->text) + "::" +
             pmclog::tools::github_data(row_text(r, in, cfg) + ": " +
                                        change_text(t.gate->total ? r.total : r.self,
                                                    t.gate->total ? "total" : "self")) +
             "\n";
    }
  out += summary_line(rep.result) + "\n";
  return out;
}

std::string format_junit(const DiffReport& rep, const ProfileView& in, const Config& cfg) {
  using pmclog::tools::xml_text;
  size_t failures = 0;
  for (const Tripped& t : rep.tripped) failures += !t.rows.empty();
  const size_t tests = rep.tripped.size();
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"pmclog-report\" tests=\"" + std::to_string(tests) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\">\n";
  out += "  <testsuite name=\"pmclog-report --diff\" tests=\"" + std::to_string(tests) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" skipped=\"0\">\n";
  for (const Tripped& t : rep.tripped) {
    out += "    <testcase classname=\"pmclog-report\" name=\"" +
           xml_text("--fail-if " + t.gate->text) + "\">\n";
    if (!t.rows.empty()) {
      std::string lines;
      for (size_t i : t.rows) {
        const DiffRow& r = rep.result.rows[i];
        lines += xml_text(row_text(r, in, cfg) + ": " +
                          change_text(t.gate->total ? r.total : r.self,
                                      t.gate->total ? "total" : "self")) +
                 "\n";
      }
      out += "      <failure message=\"" + std::to_string(t.rows.size()) +
             " rows changed significantly past the condition\" type=\"regression\">" + lines +
             "</failure>\n";
    }
    out += "    </testcase>\n";
  }
  out += "    <system-out>" + xml_text(summary_line(rep.result)) + "</system-out>\n";
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace

bool DiffReport::failed() const {
  return std::any_of(tripped.begin(), tripped.end(), [](const Tripped& t) { return !t.rows.empty(); });
}

DiffReport make_diff(const Config& cfg, const ProfileView& in) {
  pmcprofile::DiffOptions o;
  o.by = cfg.by;
  o.sort = cfg.sort;
  o.alpha = cfg.alpha;
  DiffReport rep;
  rep.result = pmcprofile::diff_profiles(in.profiles.at(0), in.profiles.at(1), in.tables,
                                         in.objects, o);
  rep.tripped = check_gates(cfg.fail_if, rep.result, in);
  return rep;
}

std::string format_diff(OutputKind kind, const DiffReport& d, const ProfileView& in,
                        const Config& cfg, const pmcprofile::FoldedOptions& folded) {
  switch (kind) {
    case OutputKind::top: return format_top(d, in, cfg);
    case OutputKind::json: return format_json(d, in, cfg);
    case OutputKind::github: return format_github(d, in, cfg);
    case OutputKind::junit: return format_junit(d, in, cfg);
    case OutputKind::folded: {
      std::string out;
      for (const auto& l : pmcprofile::diff_folded_lines(in.profiles.at(0), in.profiles.at(1),
                                                         in.tables, folded))
        out += l + "\n";
      return out;
    }
    default: return {};  // refused by parse_options
  }
}

std::string describe_tripped(const Gate& g, const DiffRow& r, const ProfileView& in,
                             const Config& cfg) {
  return "--fail-if '" + g.text + "': " + row_text(r, in, cfg) + ": " +
         change_text(g.total ? r.total : r.self, g.total ? "total" : "self");
}

}  // namespace report
