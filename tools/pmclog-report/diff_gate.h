// --fail-if: the conditions under which a --diff run fails a CI job (exit 3).
//
//   MEASURE[(KEY=VALUE[,KEY=VALUE...])] OP [+|-]NUMBER[%]
//
// MEASURE is self or total (the row's share of its event's samples); KEY is sym (symbol),
// comm, dso (object) or event, matched exactly as top prints the column (a NAME may hold
// parentheses and commas: the list ends at the last ')'); OP is > or <;
// NUMBER alone is a change in points of share (self>+2: grew by more than 2 points),
// NUMBER% a relative change of the share (total(sym=f)>+5%: grew by more than 5 percent).
// Only rows whose change of that measure is significant can trip a condition.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pmcprofile/diff.h"

namespace report {

struct Gate {
  std::string text;  // as typed
  bool total = false;  // else self
  std::vector<std::pair<std::string, std::string>> where;  // (key, value), keys normalized
  bool greater = true;  // > (else <)
  double value = 0;
  bool relative = false;  // NUMBER%
};

// Throws pmclog::tools::UsageError naming what is wrong.
Gate parse_gate(const std::string& text);

// The names a row is matched and printed by.
struct RowNames {
  std::string event, comm, object, symbol;
};
RowNames row_names(const pmcprofile::DiffRow& r, const pmcprofile::ProfileView& in);

// Does the row trip the gate?
bool trips(const Gate& g, const pmcprofile::DiffRow& r, const RowNames& names);

// Each gate with the indexes (into the result's rows) of the rows that tripped it.
struct Tripped {
  const Gate* gate;
  std::vector<size_t> rows;
};
std::vector<Tripped> check_gates(const std::vector<Gate>& gates,
                                 const pmcprofile::DiffResult& d,
                                 const pmcprofile::ProfileView& in);

}  // namespace report
