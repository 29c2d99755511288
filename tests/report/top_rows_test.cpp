// top's rows against the definition, on random stack tables: a row's self is the samples
// whose leaf's innermost function it is (or, for a leaf frame without functions, its nearest
// caller's), and its total the samples whose stack holds it, once each however often the
// stack recurses. The expected rows are made here by walking up from every leaf; the rows
// come from one walk down, so trees with recursion, inlined calls, frames without
// functions, nodes no sample passes through, several contexts and weights are all made.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "pmcprofile/profile.h"
#include "pmcprofile/views.h"

namespace {

using pmcprofile::FunctionRef;
using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>;

Key key_of(const pmcprofile::TopRow& r) {
  return {r.event, r.comm, r.pid, r.tid, r.object, r.function};
}

struct Built {
  pmcprofile::Tables t;
  pmcprofile::Profile p;
};

void build(Built& b, uint64_t seed) {
  std::mt19937_64 rng(seed);
  pmcprofile::Tables& t = b.t;
  for (int i = 0; i < 12; ++i) {
    pmcprofile::Function f;
    f.name = "f";
    f.name += std::to_string(i % 9);  // alike names of different functions
    f.object = static_cast<pmcprofile::ObjectId>(i % 3);
    t.functions.push_back(f);
  }
  // Few frames, so that stacks recurse; some stand for no function, some for an inlined one.
  const size_t nframes = 10;
  for (size_t i = 0; i < nframes; ++i) {
    pmcprofile::Frame fr;
    fr.where.address = 0x1000 + i;
    fr.where.object = 0;
    t.frame(fr);
    std::vector<FunctionRef> refs;
    if (i % 7 != 6) refs.push_back({static_cast<pmcprofile::FunctionId>(rng() % 12), 0});
    if (i % 4 == 1) refs.push_back({static_cast<pmcprofile::FunctionId>(rng() % 12), 1});
    t.frame_functions.push_back(refs);
  }
  for (const char* e : {"cpu-clock", "instructions"}) t.event(e);
  for (const char* c : {"sh", "cc"}) t.comm(c);
  for (int k = 0; k < 400; ++k) {
    pmcprofile::Context c;
    c.event = static_cast<uint32_t>(rng() % 2);
    c.comm = static_cast<uint32_t>(rng() % 2);
    c.pid = static_cast<uint32_t>(rng() % 2);
    c.tid = static_cast<uint32_t>(rng() % 3);
    pmcprofile::NodeId n = b.p.root(t.context(c));
    for (size_t d = 1 + rng() % 12; d-- > 0;)
      n = b.p.child(n, static_cast<pmcprofile::FrameId>(rng() % nframes));
    if (rng() % 5 != 0) b.p.add(n, 1 + rng() % 9);  // else a stack without samples
  }
}

// The definition, one leaf at a time.
std::map<Key, std::pair<uint64_t, uint64_t>> expected(const Built& b,
                                                      const pmcprofile::GroupBy& by,
                                                      const std::vector<uint64_t>& weight) {
  const pmcprofile::Tables& t = b.t;
  const pmcprofile::Profile& p = b.p;
  std::map<Key, std::pair<uint64_t, uint64_t>> rows;
  for (pmcprofile::NodeId leaf = 0; leaf < p.nodes.size(); ++leaf) {
    if (p.self[leaf] == 0 || p.is_root(leaf)) continue;
    const pmcprofile::Context& c = t.context_of(p.context_of(leaf));
    const uint64_t n = p.self[leaf] * (weight.empty() ? 1 : weight[c.event]);
    std::set<Key> seen;
    bool self_given = false;
    for (pmcprofile::NodeId at = leaf; !p.is_root(at); at = p.nodes[at].parent) {
      const auto& refs = t.frame_functions[p.nodes[at].value];
      for (size_t i = refs.size(); i-- > 0;) {  // innermost first
        const pmcprofile::Function& f = t.functions[refs[i].id];
        // Without the object, a name is one row: the first function of that name.
        uint32_t fn = refs[i].id;
        if (!by.object)
          for (uint32_t g = 0; g < t.functions.size(); ++g)
            if (t.functions[g].name == f.name) {
              fn = g;
              break;
            }
        const Key k{c.event, by.comm ? c.comm : 0xFFFFFFFFu, by.pid ? c.pid : 0xFFFFFFFFu,
                    by.tid ? c.tid : 0xFFFFFFFFu, by.object ? f.object : pmcprofile::kNoObject,
                    fn};
        auto& row = rows[k];
        if (!self_given) row.first += n;
        self_given = true;
        if (seen.insert(k).second) row.second += n;
      }
    }
  }
  return rows;
}

TEST(TopRows, EveryRowIsItsDefinitionOnRandomStackTables) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    Built b;
    build(b, seed);
    pmcprofile::GroupBy by;
    by.pid = seed % 2 == 0;
    by.tid = seed % 3 == 0;
    by.object = seed % 4 != 1;
    const std::vector<uint64_t> weight =
        seed % 3 == 1 ? std::vector<uint64_t>{} : std::vector<uint64_t>{3, 1000};
    const pmcprofile::FunctionLabels label(b.t);
    std::map<Key, std::pair<uint64_t, uint64_t>> got;
    for (const pmcprofile::TopRow& r : pmcprofile::top_rows_unsorted(b.p, b.t, label, by, weight))
      EXPECT_TRUE(got.emplace(key_of(r), std::pair{r.self, r.total}).second) << "a row twice";
    const auto want = expected(b, by, weight);
    EXPECT_EQ(got, want) << "seed " << seed;
    // The cases a walk down could get wrong are there: stacks that recurse, samples on a
    // frame without functions, and nodes no sample passes through.
    const pmcprofile::Profile& p = b.p;
    bool recursion = false, bare_leaf = false;
    std::vector<uint64_t> through(p.self);
    for (size_t n = p.nodes.size(); n-- > 0;)
      if (!p.is_root(n)) through[p.nodes[n].parent] += through[n];
    for (pmcprofile::NodeId leaf = 0; leaf < p.nodes.size(); ++leaf) {
      if (p.self[leaf] == 0 || p.is_root(leaf)) continue;
      bare_leaf = bare_leaf || b.t.frame_functions[p.nodes[leaf].value].empty();
      std::set<uint32_t> frames;
      for (auto at = leaf; !p.is_root(at); at = p.nodes[at].parent)
        recursion = recursion || !frames.insert(p.nodes[at].value).second;
    }
    EXPECT_TRUE(recursion);
    EXPECT_TRUE(bare_leaf);
    EXPECT_NE(std::count(through.begin(), through.end(), uint64_t{0}), 0);
  }
}

}  // namespace
