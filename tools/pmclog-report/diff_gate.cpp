#include "diff_gate.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "pmcprofile/objects.h"
#include "tool_error.h"

namespace report {
namespace {

using pmclog::tools::UsageError;

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw UsageError("--fail-if '" + text + "': " + why +
                   " (the form: self|total[(sym=NAME,comm=NAME,dso=NAME,event=NAME)]>|<"
                   "[+|-]NUMBER[%], e.g. self>+2 or total(sym=f)>+5%)");
}

}  // namespace

Gate parse_gate(const std::string& text) {
  Gate g;
  g.text = text;
  size_t at = 0;
  const auto measure_end = text.find_first_not_of("abcdefghijklmnopqrstuvwxyz_");
  const std::string measure = text.substr(0, measure_end);
  if (measure == "self") g.total = false;
  else if (measure == "total") g.total = true;
  else bad(text, "'" + measure + "' is not self or total");
  at = measure.size();
  if (at < text.size() && text[at] == '(') {
    // Names hold parentheses, commas and angle brackets (C++ signatures, templates): the
    // list ends at the last ')', and an item starts only where a key and '=' follow a ','.
    const size_t close = text.rfind(')');
    if (close == std::string::npos || close < at) bad(text, "no ')' after the '('");
    const std::string inside = text.substr(at + 1, close - at - 1);
    const auto key_at = [&](size_t i) {
      for (const char* k : {"sym=", "symbol=", "comm=", "dso=", "object=", "event="})
        if (inside.compare(i, std::strlen(k), k) == 0) return true;
      return false;
    };
    size_t from = 0;
    while (from <= inside.size()) {
      size_t comma = inside.find(',', from);
      while (comma != std::string::npos && !key_at(comma + 1)) comma = inside.find(',', comma + 1);
      if (comma == std::string::npos) comma = inside.size();
      const std::string item = inside.substr(from, comma - from);
      const size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        bad(text, "'" + item + "' is not KEY=VALUE");
      std::string key = item.substr(0, eq);
      if (key == "symbol") key = "sym";
      if (key == "object") key = "dso";
      if (key != "sym" && key != "comm" && key != "dso" && key != "event")
        bad(text, "'" + key + "' is not sym, comm, dso or event");
      g.where.emplace_back(key, item.substr(eq + 1));
      from = comma + 1;
    }
    at = close + 1;
  }
  if (at >= text.size() || (text[at] != '>' && text[at] != '<'))
    bad(text, "no comparison: > or < after the measure");
  g.greater = text[at] == '>';
  ++at;
  std::string number = text.substr(at);
  if (!number.empty() && number.back() == '%') {
    g.relative = true;
    number.pop_back();
  }
  char* end = nullptr;
  errno = 0;
  g.value = number.empty() ? 0 : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || errno != 0 ||
      !std::isfinite(g.value) || number.find_first_of("xXpP") != std::string::npos ||
      number.find_first_not_of("+-0123456789.eE") != std::string::npos)
    bad(text, "'" + number + "' is not a number");
  return g;
}

RowNames row_names(const pmcprofile::DiffRow& r, const pmcprofile::ProfileView& in) {
  const pmcprofile::Tables& t = in.tables;
  RowNames n;
  n.event = t.events[r.key.event];
  if (r.key.comm != 0xFFFFFFFFu) n.comm = t.comms[r.key.comm];
  if (r.key.object_grouped)
    n.object = r.key.object == pmcprofile::kNoObject ? "[unknown]" : in.objects.peek(r.key.object).name;
  if (r.key.function != 0xFFFFFFFFu) n.symbol = pmcprofile::function_label(t.functions[r.key.function]);
  return n;
}

bool trips(const Gate& g, const pmcprofile::DiffRow& r, const RowNames& names) {
  const pmcprofile::DiffMeasure& m = g.total ? r.total : r.self;
  if (!m.significant) return false;
  for (const auto& [key, value] : g.where) {
    const std::string& have = key == "sym"    ? names.symbol
                              : key == "comm" ? names.comm
                              : key == "dso"  ? names.object
                                              : names.event;
    if (have != value) return false;
  }
  // A share that was 0 grew by an infinite ratio: any relative growth.
  const double change = g.relative ? (m.ratio - 1) * 100 : m.delta;
  return g.greater ? change > g.value : change < g.value;
}

std::vector<Tripped> check_gates(const std::vector<Gate>& gates, const pmcprofile::DiffResult& d,
                                 const pmcprofile::ProfileView& in) {
  std::vector<Tripped> out;
  for (const Gate& g : gates) out.push_back({&g, {}});
  if (gates.empty()) return out;
  for (size_t i = 0; i < d.rows.size(); ++i) {
    const RowNames names = row_names(d.rows[i], in);
    for (Tripped& t : out)
      if (trips(*t.gate, d.rows[i], names)) t.rows.push_back(i);
  }
  return out;
}

}  // namespace report
