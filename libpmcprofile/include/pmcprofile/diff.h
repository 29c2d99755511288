// Two profiles compared: which rows of `top` took a larger or smaller share of their event's
// samples in the second (new) profile than in the first (base), and which of those changes
// are larger than sampling noise explains.
//
// Both profiles live in one Session (Session::begin_profile() starts the second), so that
// their ids mean the same things. Each side is normalized to its own samples per event: a
// share is a row's samples over the event's samples on that side. Events never mix; an
// event sampled on one side only is listed as such and its rows are not tested.
//
// Periods: where one side merges logs that sampled an event at different rates (periods),
// a sample stands for more or fewer events depending on its log, and that side's shares are
// of samples x period instead. Its test then uses Kish's effective sample size,
// (sum w n)^2 / sum w^2 n over the rates' weights w and samples n, which is the sample count
// when every weight is equal and shrinks as the weights spread (a weighted share is noisier
// than a plain one of as many samples).
//
// Significance: each row of an event sampled on both sides is tested twice, its self and
// its total count, as two proportions (see two_proportion_p); the p-values of each measure
// are corrected over every tested row with Benjamini-Hochberg, and a change is significant
// when its adjusted p-value (q) is at most `alpha`. Total shares are not independent across
// rows (a caller's total holds its callees'); Benjamini-Hochberg stays valid under the
// positive dependence that nesting gives.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pmcprofile/profile.h"
#include "pmcprofile/views.h"

namespace pmcprofile {

// Where an event was sampled.
enum class DiffPresence : uint8_t { both, base_only, new_only };

// One measure (self or total) of a row on both sides.
struct DiffMeasure {
  uint64_t base = 0, now = 0;  // samples
  // Samples x period in the unit of the side's weights (DiffRow::base_weight), on a side
  // weighted by period; 0 on a side that is not.
  double base_weighted = 0, new_weighted = 0;
  double base_share = 0, new_share = 0;  // percent of the event's samples on that side
  double delta = 0;   // new_share - base_share, in points
  double ratio = 0;   // new_share / base_share; +infinity from 0, 1 when both are 0
  double p = 1, q = 1;  // the test's p-value and its Benjamini-Hochberg adjusted value
  bool significant = false;
};

struct DiffRow {
  TopRow key;  // the row's key fields; its self and total are the new side's
  DiffPresence presence = DiffPresence::both;
  uint64_t base_samples = 0, new_samples = 0;  // the event's samples on each side
  // A side whose logs sampled the event at several periods: the event's samples x period
  // (weighted) and its effective sample size; both 0 on a side weighted by nothing.
  double base_weighted = 0, new_weighted = 0;
  double base_effective = 0, new_effective = 0;
  DiffMeasure self, total;
};

struct DiffEvent {
  uint32_t event = 0;  // its distinct event's first id
  uint64_t base_samples = 0, new_samples = 0;
  DiffPresence presence = DiffPresence::both;
  // The periods (Tables::event_rates) of a side that mixes several, weighting its shares;
  // empty for a side of one period or of periods not said.
  std::vector<uint64_t> base_periods, new_periods;
  double base_weighted = 0, new_weighted = 0, base_effective = 0, new_effective = 0;
};

// What a sample weighs on one side, per event id: its period over the gcd of its event's
// periods where the side holds samples of that event at two or more periods, every one of
// them said; otherwise 1. Empty when no event of the side is weighted.
std::vector<uint64_t> period_weights(const Profile& p, const Tables& t);
// Of a distinct event on a side weighted by `w` (period_weights): its effective sample size
// over its samples x weight, what turns weighted counts into counts to test (1 unweighted).
double effective_per_weighted(const Profile& p, const Tables& t, uint32_t distinct,
                              std::span<const uint64_t> w);

struct DiffOptions {
  GroupBy by;
  SortKey sort = SortKey::self;  // self, total: by the absolute delta; name, object: as top
  double alpha = 0.01;           // the false discovery rate
};

struct DiffResult {
  std::vector<DiffRow> rows;  // per event (top's event order), then by the sort
  std::vector<DiffEvent> events;
  size_t tested = 0;  // rows tested (per measure): the rows of events sampled on both sides
  size_t significant_self = 0, significant_total = 0;
  double alpha = 0.01;
};

// Rows of `base` and `now` (profiles of one Session, symbolized) matched by top's key.
DiffResult diff_profiles(const Profile& base, const Profile& now, const Tables& t,
                         const ObjectTable& objects, const DiffOptions& o);

// The statistics alone, on rows whose counts and event samples are set: shares, deltas,
// ratios, p-values, the Benjamini-Hochberg correction over the rows of presence `both`.
// Returns the number of rows tested.
size_t assess_rows(std::span<DiffRow> rows, double alpha);

// Two-sided p-value of "x1 of n1 and x2 of n2 come from one proportion".
double two_proportion_p(uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2);

// Benjamini-Hochberg adjusted p-values (q), beside `p`.
std::vector<double> benjamini_hochberg(std::span<const double> p);

// Folded stacks of both sides as FlameGraph's difffolded.pl takes them: "stack base new",
// one line per stack of either side, sorted. A side weighted by period (period_weights)
// counts samples x weight.
std::vector<std::string> diff_folded_lines(const Profile& base, const Profile& now,
                                           const Tables& t, const FoldedOptions& o);

}  // namespace pmcprofile
