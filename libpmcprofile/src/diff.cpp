#include "pmcprofile/diff.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace pmcprofile {
namespace {

// Under this expected count in any cell of the 2x2 table the normal approximation of the
// z-test is poor (it overstates significance of rare rows): the exact test takes over.
constexpr double kNormalFrom = 10;

double share(uint64_t x, uint64_t n) {
  return n == 0 ? 0.0 : 100.0 * static_cast<double>(x) / static_cast<double>(n);
}

// Two-sided p of `a` successes in Binomial(m, q): the sum of the outcomes no likelier than
// `a`. Walks out from the mode, where the terms are, so that it costs the spread of the
// distribution, not m.
double binomial_two_sided(uint64_t a, uint64_t m, double q) {
  const double lq = std::log(q), lr = std::log1p(-q);
  const auto log_pmf = [&](uint64_t k) {
    const double kd = static_cast<double>(k), md = static_cast<double>(m);
    return std::lgamma(md + 1) - std::lgamma(kd + 1) - std::lgamma(md - kd + 1) + kd * lq +
           (md - kd) * lr;
  };
  const auto mode = static_cast<uint64_t>(std::min<double>(
      static_cast<double>(m), std::floor((static_cast<double>(m) + 1) * q)));
  const double log_mode = log_pmf(mode);
  const double target = std::exp(log_pmf(a) - log_mode) * (1 + 1e-7);  // ties count
  const double odds = q / (1 - q);
  double sum = 0;
  // Terms relative to the mode's; they fall away from it on both sides.
  double rel = 1;
  for (uint64_t k = mode;;) {
    if (rel <= target) sum += rel;
    if (k == m || (rel < 1e-18 && rel <= target)) break;
    rel *= static_cast<double>(m - k) / static_cast<double>(k + 1) * odds;
    ++k;
  }
  rel = 1;
  for (uint64_t k = mode; k > 0;) {
    rel *= static_cast<double>(k) / static_cast<double>(m - k + 1) / odds;
    --k;
    if (rel <= target) sum += rel;
    if (rel < 1e-18 && rel <= target) break;
  }
  return std::min(1.0, sum * std::exp(log_mode));
}

// Each name's place in name order, so that sorting many rows compares numbers: ids
// (0 .. n) by name(id).
template <class Name>
std::vector<uint32_t> name_ranks(size_t n, Name&& name) {
  std::vector<uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return name(a) < name(b); });
  std::vector<uint32_t> rank(n);
  for (size_t i = 0; i < n; ++i)  // equal names, one rank
    rank[ids[i]] = i > 0 && !(name(ids[i - 1]) < name(ids[i])) ? rank[ids[i - 1]]
                                                                : static_cast<uint32_t>(i);
  return rank;
}

// A side's periods of one distinct event: the rates of its ids with samples there, when
// there are two or more and every one is said (else none: the side is not weighted).
std::vector<uint64_t> side_periods(const Profile& p, const Tables& t, uint32_t distinct) {
  std::vector<uint64_t> rates;
  for (uint32_t e = 0; e < p.event_samples.size() && e < t.events.size(); ++e) {
    if (t.distinct_events.of[e] != distinct || p.event_samples[e] == 0) continue;
    const uint64_t r = e < t.event_rates.size() ? t.event_rates[e] : 0;
    if (r == 0) return {};
    rates.push_back(r);
  }
  std::sort(rates.begin(), rates.end());
  rates.erase(std::unique(rates.begin(), rates.end()), rates.end());
  if (rates.size() < 2) rates.clear();
  return rates;
}

// Samples x weight of a distinct event on a side, and Kish's effective sample size.
std::pair<double, double> weighted_samples(const Profile& p, const Tables& t, uint32_t distinct,
                                           std::span<const uint64_t> w) {
  double s1 = 0, s2 = 0;
  for (uint32_t e = 0; e < p.event_samples.size() && e < w.size(); ++e) {
    if (t.distinct_events.of[e] != distinct) continue;
    const double n = static_cast<double>(p.event_samples[e]), we = static_cast<double>(w[e]);
    s1 += we * n;
    s2 += we * we * n;
  }
  return {s1, s2 == 0 ? 0 : s1 * s1 / s2};
}

}  // namespace

std::vector<uint64_t> period_weights(const Profile& p, const Tables& t) {
  std::vector<uint64_t> w(t.events.size(), 1);
  bool any = false;
  for (uint32_t d = 0; d < t.distinct_events.first.size(); ++d) {
    const std::vector<uint64_t> rates = side_periods(p, t, d);
    if (rates.empty()) continue;
    any = true;
    uint64_t g = 0;
    for (uint64_t r : rates) g = std::gcd(g, r);
    for (uint32_t e = 0; e < p.event_samples.size() && e < t.events.size(); ++e)
      if (t.distinct_events.of[e] == d && p.event_samples[e] != 0) w[e] = t.event_rates[e] / g;
  }
  if (!any) w.clear();
  return w;
}

double effective_per_weighted(const Profile& p, const Tables& t, uint32_t distinct,
                              std::span<const uint64_t> w) {
  const auto [weighted, effective] = weighted_samples(p, t, distinct, w);
  return weighted > 0 && effective > 0 ? effective / weighted : 1.0;
}

// The test: a two-proportion z-test with the pooled proportion when every cell of the 2x2
// table (row or not, base or new) expects at least kNormalFrom samples; otherwise an exact
// test, conditional on the smaller margin (the row's samples on both sides, or the rest's):
// under one proportion they split between the sides as Binomial(m, n1 / (n1 + n2)). The
// exact test is cheap where it is needed (m is small there), and the z-test is what the
// large rows of a profile need: it costs nothing and is accurate at those counts.
double two_proportion_p(uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2) {
  if (n1 == 0 || n2 == 0) return 1;
  const double N = static_cast<double>(n1) + static_cast<double>(n2);
  const double m = static_cast<double>(x1) + static_cast<double>(x2);
  if (m == 0 || m == N) return 1;
  const double pool = m / N;
  const double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2);
  const double least = std::min(std::min(d1 * pool, d1 * (1 - pool)),
                                std::min(d2 * pool, d2 * (1 - pool)));
  if (least >= kNormalFrom) {
    const double se = std::sqrt(pool * (1 - pool) * (1 / d1 + 1 / d2));
    const double z = (static_cast<double>(x1) / d1 - static_cast<double>(x2) / d2) / se;
    return std::erfc(std::fabs(z) / std::sqrt(2.0));
  }
  uint64_t a = x1, b = x2;
  if (x1 + x2 > (n1 - x1) + (n2 - x2)) {
    a = n1 - x1;
    b = n2 - x2;
  }
  return binomial_two_sided(a, a + b, d1 / N);
}

std::vector<double> benjamini_hochberg(std::span<const double> p) {
  const size_t m = p.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p[a] < p[b]; });
  std::vector<double> q(m);
  double running = 1;
  for (size_t i = m; i-- > 0;) {
    running = std::min(running, p[order[i]] * static_cast<double>(m) / static_cast<double>(i + 1));
    q[order[i]] = running;
  }
  return q;
}

size_t assess_rows(std::span<DiffRow> rows, double alpha) {
  std::vector<double> ps, pt;
  std::vector<size_t> tested;
  for (size_t i = 0; i < rows.size(); ++i) {
    DiffRow& r = rows[i];
    for (DiffMeasure* m : {&r.self, &r.total}) {
      m->base_share = r.base_weighted > 0 ? 100 * m->base_weighted / r.base_weighted
                                          : share(m->base, r.base_samples);
      m->new_share = r.new_weighted > 0 ? 100 * m->new_weighted / r.new_weighted
                                        : share(m->now, r.new_samples);
      m->delta = m->new_share - m->base_share;
      m->ratio = m->base_share != 0 ? m->new_share / m->base_share
                 : m->new_share != 0 ? std::numeric_limits<double>::infinity()
                                     : 1.0;
      m->p = m->q = 1;
      m->significant = false;
    }
    if (r.presence != DiffPresence::both) continue;
    // A weighted side is tested as its share of its effective sample size.
    const auto counts = [](uint64_t x, uint64_t n, double share_pct, double effective) {
      if (effective <= 0) return std::pair<uint64_t, uint64_t>{x, n};
      const auto ne = static_cast<uint64_t>(std::llround(effective));
      const auto xe = static_cast<uint64_t>(std::llround(share_pct / 100 * effective));
      return std::pair<uint64_t, uint64_t>{std::min(xe, ne), ne};
    };
    for (DiffMeasure* m : {&r.self, &r.total}) {
      const auto [xb, nb] = counts(m->base, r.base_samples, m->base_share, r.base_effective);
      const auto [xn, nn] = counts(m->now, r.new_samples, m->new_share, r.new_effective);
      m->p = two_proportion_p(xb, nb, xn, nn);
    }
    ps.push_back(r.self.p);
    pt.push_back(r.total.p);
    tested.push_back(i);
  }
  const std::vector<double> qs = benjamini_hochberg(ps), qt = benjamini_hochberg(pt);
  for (size_t k = 0; k < tested.size(); ++k) {
    DiffRow& r = rows[tested[k]];
    r.self.q = qs[k];
    r.total.q = qt[k];
    r.self.significant = qs[k] <= alpha && r.self.delta != 0;
    r.total.significant = qt[k] <= alpha && r.total.delta != 0;
  }
  return tested.size();
}

DiffResult diff_profiles(const Profile& base, const Profile& now, const Tables& t,
                         const ObjectTable& objects, const DiffOptions& o) {
  DiffResult out;
  out.alpha = o.alpha;
  const FunctionLabels label(t);
  const std::vector<uint64_t> wb = period_weights(base, t), wn = period_weights(now, t);
  {  // each side's rows and the index live only while the rows are matched
    std::unordered_map<TopRow, size_t, TopRowKeyHash, TopRowKeyEq> index;
    const auto row_of = [&](const TopRow& r) -> DiffRow& {
      auto [it, fresh] = index.try_emplace(r, out.rows.size());
      if (fresh) {
        DiffRow d;
        d.key = r;
        d.key.self = d.key.total = 0;
        out.rows.push_back(d);
      }
      return out.rows[it->second];
    };
    for (const TopRow& r : top_rows_unsorted(base, t, label, o.by)) {
      DiffRow& d = row_of(r);
      d.self.base = r.self;
      d.total.base = r.total;
    }
    for (const TopRow& r : top_rows_unsorted(now, t, label, o.by)) {
      DiffRow& d = row_of(r);
      d.self.now = d.key.self = r.self;
      d.total.now = d.key.total = r.total;
    }
    // Sides that mix periods: the same rows again, counted as samples x weight.
    if (!wb.empty())
      for (const TopRow& r : top_rows_unsorted(base, t, label, o.by, wb)) {
        DiffRow& d = row_of(r);
        d.self.base_weighted = static_cast<double>(r.self);
        d.total.base_weighted = static_cast<double>(r.total);
      }
    if (!wn.empty())
      for (const TopRow& r : top_rows_unsorted(now, t, label, o.by, wn)) {
        DiffRow& d = row_of(r);
        d.self.new_weighted = static_cast<double>(r.self);
        d.total.new_weighted = static_cast<double>(r.total);
      }
  }
  // Each distinct event once, by its first id (top_rows keys rows by it).
  std::map<uint32_t, DiffEvent> events;
  for (DiffRow& d : out.rows) {
    auto [it, fresh] = events.try_emplace(d.key.event);
    DiffEvent& e = it->second;
    if (fresh) {
      e.event = d.key.event;
      e.base_samples = event_samples(base, t, e.event);
      e.new_samples = event_samples(now, t, e.event);
      e.presence = e.base_samples == 0  ? DiffPresence::new_only
                   : e.new_samples == 0 ? DiffPresence::base_only
                                        : DiffPresence::both;
      const uint32_t distinct = t.distinct_events.of[e.event];
      e.base_periods = side_periods(base, t, distinct);
      e.new_periods = side_periods(now, t, distinct);
      if (!e.base_periods.empty())
        std::tie(e.base_weighted, e.base_effective) = weighted_samples(base, t, distinct, wb);
      if (!e.new_periods.empty())
        std::tie(e.new_weighted, e.new_effective) = weighted_samples(now, t, distinct, wn);
    }
    d.base_samples = e.base_samples;
    d.new_samples = e.new_samples;
    d.base_weighted = e.base_weighted;
    d.new_weighted = e.new_weighted;
    d.base_effective = e.base_effective;
    d.new_effective = e.new_effective;
    d.presence = e.presence;
  }
  for (const auto& [id, e] : events) out.events.push_back(e);
  std::sort(out.events.begin(), out.events.end(), [&](const DiffEvent& a, const DiffEvent& c) {
    return t.events[a.event] < t.events[c.event];
  });
  out.tested = assess_rows(out.rows, o.alpha);
  for (const DiffRow& d : out.rows) {
    out.significant_self += d.self.significant;
    out.significant_total += d.total.significant;
  }
  // Top's order of names (event, then symbol, object, command), as ranks.
  const std::vector<uint32_t> event_rank =
      name_ranks(t.events.size(), [&](uint32_t e) -> const std::string& { return t.events[e]; });
  const std::vector<uint32_t> function_rank = name_ranks(
      t.functions.size(), [&](uint32_t f) -> const std::string& { return label(f); });
  const std::vector<uint32_t> comm_rank =
      name_ranks(t.comms.size(), [&](uint32_t c) -> const std::string& { return t.comms[c]; });
  std::vector<ObjectId> object_ids;
  for (const DiffRow& d : out.rows) object_ids.push_back(d.key.object);
  std::sort(object_ids.begin(), object_ids.end());
  object_ids.erase(std::unique(object_ids.begin(), object_ids.end()), object_ids.end());
  static const std::string unknown = "[unknown]";
  const std::vector<uint32_t> object_order =
      name_ranks(object_ids.size(), [&](uint32_t i) -> const std::string& {
        return object_ids[i] == kNoObject ? unknown : objects.peek(object_ids[i]).name;
      });
  std::unordered_map<ObjectId, uint32_t> object_rank;
  for (size_t i = 0; i < object_ids.size(); ++i) object_rank[object_ids[i]] = object_order[i];
  struct SortKeys {
    uint32_t function = 0, object = 0, comm = 0;
  };
  std::vector<SortKeys> keys(out.rows.size());
  for (size_t i = 0; i < out.rows.size(); ++i) {
    const TopRow& k = out.rows[i].key;
    // No symbol in the key: "" sorts first.
    keys[i].function = k.function == 0xFFFFFFFFu ? 0 : function_rank[k.function] + 1;
    keys[i].object = object_rank[k.object];
    keys[i].comm = k.comm == 0xFFFFFFFFu ? 0 : comm_rank[k.comm] + 1;
  }
  const bool by_delta = o.sort == SortKey::self || o.sort == SortKey::total;
  std::vector<uint32_t> order(out.rows.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t ia, uint32_t ic) {
    const DiffRow& a = out.rows[ia];
    const DiffRow& c = out.rows[ic];
    if (a.key.event != c.key.event) return event_rank[a.key.event] < event_rank[c.key.event];
    if (by_delta) {
      const double da = std::fabs(o.sort == SortKey::self ? a.self.delta : a.total.delta);
      const double dc = std::fabs(o.sort == SortKey::self ? c.self.delta : c.total.delta);
      if (da != dc) return da > dc;
    }
    const SortKeys& ka = keys[ia];
    const SortKeys& kc = keys[ic];
    if (o.sort == SortKey::object && ka.object != kc.object) return ka.object < kc.object;
    if (ka.function != kc.function) return ka.function < kc.function;
    if (ka.object != kc.object) return ka.object < kc.object;
    if (ka.comm != kc.comm) return ka.comm < kc.comm;
    if (a.key.pid != c.key.pid) return a.key.pid < c.key.pid;
    if (a.key.tid != c.key.tid) return a.key.tid < c.key.tid;
    return a.key.thread < c.key.thread;
  });
  // rows[k] = old rows[order[k]], in place, cycle by cycle: no second copy of the rows.
  std::vector<bool> placed(order.size(), false);
  for (size_t start = 0; start < order.size(); ++start) {
    if (placed[start]) continue;
    const DiffRow first = out.rows[start];
    for (size_t k = start;;) {
      placed[k] = true;
      const size_t from = order[k];
      if (from == start) {
        out.rows[k] = first;
        break;
      }
      out.rows[k] = out.rows[from];
      k = from;
    }
  }
  return out;
}

std::vector<std::string> diff_folded_lines(const Profile& base, const Profile& now,
                                           const Tables& t, const FoldedOptions& options) {
  // folded_lines ends every line in " count"; the stacks are matched by their text.
  std::map<std::string, std::pair<uint64_t, uint64_t>> both;
  const auto add = [&](const Profile& p, bool second) {
    const std::vector<uint64_t> w = period_weights(p, t);
    FoldedOptions o = options;
    o.weight = w;
    for (const std::string& line : folded_lines(p, t, o)) {
      const size_t sp = line.rfind(' ');
      auto& c = both[line.substr(0, sp)];
      (second ? c.second : c.first) += std::stoull(line.substr(sp + 1));
    }
  };
  add(base, false);
  add(now, true);
  std::vector<std::string> out;
  out.reserve(both.size());
  for (const auto& [stack, c] : both)
    out.push_back(stack + " " + std::to_string(c.first) + " " + std::to_string(c.second));
  return out;
}

}  // namespace pmcprofile
