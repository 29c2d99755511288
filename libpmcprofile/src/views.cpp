#include "pmcprofile/views.h"

#include "pmclog/text.h"
#include "pmcprofile/child_lists.h"

#include <boost/endian/conversion.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <unordered_map>

namespace pmcprofile {
namespace {

// Subtree sums: samples through each node (children always come after their parent).
std::vector<uint64_t> through(const Profile& p) {
  std::vector<uint64_t> t(p.self);
  for (size_t n = p.nodes.size(); n-- > 0;)
    if (p.nodes[n].parent != kNoNode) t[p.nodes[n].parent] += t[n];
  return t;
}

}  // namespace

size_t TopRowKeyHash::operator()(const TopRow& r) const {
  uint64_t h = uint64_t{r.event} * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t{r.comm} << 32 | r.pid) * 0xC2B2AE3D27D4EB4Full;
  h ^= (uint64_t{r.tid} << 32 | r.thread) * 0xD6E8FEB86659FD93ull;
  h ^= (uint64_t{r.object} << 32 | r.function) * 0x165667B19E3779F9ull;
  return static_cast<size_t>(h ^ (h >> 29));
}

bool TopRowKeyEq::operator()(const TopRow& a, const TopRow& b) const {
  return a.event == b.event && a.comm == b.comm && a.pid == b.pid && a.tid == b.tid &&
         a.thread == b.thread && a.object == b.object && a.function == b.function;
}

FunctionLabels::FunctionLabels(const Tables& t) : labels_(t.functions.size()) {
  for (FunctionId f = 0; f < t.functions.size(); ++f) {
    const Function& fn = t.functions[f];
    labels_[f] = fn.file.empty() ? &fn.name : &made_.emplace_back(function_label(fn));
  }
}

uint64_t event_samples(const Profile& p, const Tables& t, uint32_t event) {
  const std::vector<uint32_t>& of = t.distinct_events.of;
  uint64_t n = 0;
  for (uint32_t e = 0; e < p.event_samples.size(); ++e)
    if (of[e] == of[event]) n += p.event_samples[e];
  return n;
}

std::vector<uint64_t> distinct_event_samples(std::span<const Profile> ps, const Tables& t) {
  std::vector<uint64_t> n(t.distinct_events.first.size(), 0);
  for (const Profile& p : ps)
    for (uint32_t e = 0; e < p.event_samples.size() && e < t.events.size(); ++e)
      n[t.distinct_events.of[e]] += p.event_samples[e];
  return n;
}

std::vector<TopRow> top_rows_unsorted(const Profile& p, const Tables& t,
                                      const FunctionLabels& label, const GroupBy& by,
                                      std::span<const uint64_t> weight) {
  std::unordered_map<TopRow, size_t, TopRowKeyHash, TopRowKeyEq> index;
  std::vector<TopRow> rows;
  // Without the object in the key, one name is one row whatever object holds it (the same
  // function in two builds of a program, in a fleet view).
  std::vector<FunctionId> canon(t.functions.size());
  {
    std::unordered_map<std::string, FunctionId> first;
    for (FunctionId f = 0; f < t.functions.size(); ++f)
      canon[f] = by.object ? f : first.try_emplace(label(f), f).first->second;
  }
  const size_t n_nodes = p.nodes.size();
  const std::vector<uint64_t> samples = through(p);  // a node none passes through makes no rows
  static_assert(ChildLists::kNoParent == kNoNode);
  ChildLists children(n_nodes, [&](size_t n) { return p.nodes[n].parent; });
  // A frame's rows (one per function, innermost first) depend only on the frame and the
  // context: found once per frame in each context's walk, not at each node of the frame.
  constexpr uint32_t kNone = 0xFFFFFFFFu;
  std::vector<uint32_t> frame_rows;  // the current walk's
  std::vector<uint32_t> walked_in(t.frames.size(), kNone), rows_from(t.frames.size());
  const auto rows_of = [&](FrameId frame, NodeId root, const Context& c, uint32_t event) {
    if (walked_in[frame] == root) return rows_from[frame];
    walked_in[frame] = root;
    rows_from[frame] = static_cast<uint32_t>(frame_rows.size());
    const auto& refs = t.frame_functions[frame];
    for (size_t i = refs.size(); i-- > 0;) {
      const Function& f = t.functions[refs[i].id];
      TopRow key;
      key.event = event;
      if (by.comm) key.comm = c.comm;
      if (by.pid) key.pid = c.pid;
      if (by.tid || by.thread) key.tid = c.tid;
      if (by.thread) key.thread = c.thread;
      if (by.object) {
        key.object = f.object;
        key.object_grouped = true;
      }
      if (by.symbol) key.function = canon[refs[i].id];
      auto [it, fresh] = index.try_emplace(key, rows.size());
      if (fresh) rows.push_back(key);
      frame_rows.push_back(static_cast<uint32_t>(it->second));
    }
    return rows_from[frame];
  };
  // One walk down each context's tree. A row's total is the samples through its outermost
  // node on each path (what is under it is already counted), found by counting how often the
  // row is open on the path: each sample counts once however often its stack recurses, and
  // every node is visited once, where walking up from every leaf visited shared nodes again.
  std::vector<uint32_t> open;  // by row
  struct Step {
    NodeId node;
    uint32_t next;       // in the node's children
    uint32_t from, count;  // the node's rows in frame_rows
    uint32_t self_row;   // the innermost row at or above the node (kNone: none yet)
    uint64_t weighted;   // samples through the node (x weight), complete when it is left
  };
  std::vector<Step> path;
  for (NodeId root = 0; root < n_nodes; ++root) {
    if (!p.is_root(root) || samples[root] == 0) continue;
    const Context& c = t.context_of(p.nodes[root].value);
    const uint32_t event = t.distinct_events.first[t.distinct_events.of[c.event]];
    const uint64_t w = weight.empty() ? 1 : weight[c.event];
    frame_rows.clear();
    path.push_back({root, 0, 0, 0, kNone, 0});
    while (!path.empty()) {
      Step& s = path.back();
      if (const auto kids = children.of(s.node); s.next < kids.size()) {
        const NodeId at = kids[s.next++];
        if (samples[at] == 0) continue;
        const FrameId frame = p.nodes[at].value;
        Step in{at, 0, rows_of(frame, root, c, event),
                static_cast<uint32_t>(t.frame_functions[frame].size()), s.self_row,
                p.self[at] * w};
        if (in.count != 0) in.self_row = frame_rows[in.from];
        // Innermost function first: the leaf's innermost inlined call gets the self samples
        // (a frame without functions passes them to the nearest caller with one).
        if (p.self[at] != 0 && in.self_row != kNone) rows[in.self_row].self += in.weighted;
        if (open.size() < rows.size()) open.resize(rows.size(), 0);
        for (uint32_t i = 0; i < in.count; ++i) ++open[frame_rows[in.from + i]];
        path.push_back(in);
      } else {
        for (uint32_t i = 0; i < s.count; ++i) {
          const uint32_t r = frame_rows[s.from + i];
          if (--open[r] == 0) rows[r].total += s.weighted;
        }
        const uint64_t done = s.weighted;
        path.pop_back();
        if (!path.empty()) path.back().weighted += done;
      }
    }
  }
  return rows;
}

std::vector<TopRow> top_rows(const Profile& p, const Tables& t, const ObjectTable& objects,
                             const GroupBy& by, SortKey sort) {
  const FunctionLabels label(t);  // rows are named and sorted by the label top prints
  std::vector<TopRow> rows = top_rows_unsorted(p, t, label, by);
  const auto name = [&](const TopRow& r) -> const std::string& {
    static const std::string empty;
    return r.function == 0xFFFFFFFFu ? empty : label(r.function);
  };
  const auto object = [&](const TopRow& r) -> const std::string& {
    static const std::string none = "[unknown]";
    return r.object == kNoObject ? none : objects.peek(r.object).name;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const TopRow& a, const TopRow& b) {
    if (a.event != b.event) return t.events[a.event] < t.events[b.event];
    switch (sort) {
      case SortKey::self:
        if (a.self != b.self) return a.self > b.self;
        if (a.total != b.total) return a.total > b.total;
        break;
      case SortKey::total:
        if (a.total != b.total) return a.total > b.total;
        if (a.self != b.self) return a.self > b.self;
        break;
      case SortKey::name:
        break;
      case SortKey::object:
        if (object(a) != object(b)) return object(a) < object(b);
        if (a.self != b.self) return a.self > b.self;
        break;
    }
    if (name(a) != name(b)) return name(a) < name(b);
    if (object(a) != object(b)) return object(a) < object(b);
    const std::string& ca = a.comm == 0xFFFFFFFFu ? std::string() : t.comms[a.comm];
    const std::string& cb = b.comm == 0xFFFFFFFFu ? std::string() : t.comms[b.comm];
    if (ca != cb) return ca < cb;
    if (a.pid != b.pid) return a.pid < b.pid;
    if (a.tid != b.tid) return a.tid < b.tid;
    // Rows alike in all that is printed (two static functions of one name in one object):
    // by id, first seen first, so that the order never depends on how the rows were found.
    if (a.thread != b.thread) return a.thread < b.thread;
    if (a.object != b.object) return a.object < b.object;
    return a.function < b.function;
  });
  return rows;
}

void for_each_function_stack(const Profile& p, const Tables& t, bool inlines, const StackVisitor& f) {
  std::vector<NodeId> path;
  std::vector<FunctionRef> stack;
  for (NodeId leaf = 0; leaf < p.nodes.size(); ++leaf) {
    const uint64_t n = p.self[leaf];
    if (n == 0 || p.is_root(leaf)) continue;
    path.clear();
    NodeId at = leaf;
    for (; !p.is_root(at); at = p.nodes[at].parent) path.push_back(at);
    stack.clear();
    for (size_t i = path.size(); i-- > 0;)
      for (const FunctionRef& r : t.frame_functions[p.nodes[path[i]].value])
        if (inlines || !r.inlined()) stack.push_back(r);
    f(p.nodes[at].value, stack, n);
  }
}

namespace {

// The distinct stacks' lines as ranks of their frames' texts: sorted, lines that print alike
// merged.
struct FoldedStacks {
  std::vector<std::string> token_text;  // by token id: a frame's text, ';' after all but the last
  std::vector<uint32_t> token_of_rank;  // one token id of each rank
  std::vector<uint32_t> seq;            // the lines' token ranks, big-endian
  struct Line {
    size_t from;    // in `seq`
    uint32_t size;  // frames
    uint64_t count;
    size_t bytes;  // of its text
  };
  std::vector<Line> lines;  // in byte order, lines that print alike merged

  // The line's text and " count".
  void append(const Line& l, std::string& out) const {
    for (size_t k = l.from; k < l.from + l.size; ++k)
      out += token_text[token_of_rank[boost::endian::big_to_native(seq[k])]];
    out += ' ';
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, l.count);
    out.append(digits, r.ptr);
  }
};

FoldedStacks folded_stacks(const Profile& p, const Tables& t, const FoldedOptions& o) {
  // Names come from the log and from ELF files: escaped, so that no frame can split the
  // line or reach a terminal raw; ';' would split the frame. Each function's name is
  // escaped once (stacks repeat the same few hundred functions).
  const auto safe = [](const std::string& name) {
    std::string out = pmclog::terminal_safe(name);
    std::replace(out.begin(), out.end(), ';', ':');
    return out;
  };
  // Many address-level leaves make one line (every pc of a loop is one function), so the
  // lines are built once per distinct function-level stack: each node's stack is interned
  // as (its parent's stack, one function), root first, parents before children; a line's
  // text is made only for the stacks that have samples.
  struct Step {
    uint32_t parent;  // kNoStep: a root (then `fn` indexes roots)
    uint32_t fn;      // FunctionRef::id, or the root's index
    bool inlined;
  };
  constexpr uint32_t kNoStep = 0xFFFFFFFFu;
  std::vector<Step> steps;
  // (parent, fn, inlined) -> step, in the stack table's own index (no allocation per entry):
  // a key is never all ones, as a root's is not inlined. Function ids are far below 2^31.
  NodeIndex step_ids;
  const auto intern = [&](const Step& s) {
    const uint64_t key = uint64_t{s.parent} << 32 | uint64_t{s.fn} << 1 | (s.inlined ? 1 : 0);
    const auto [id, fresh] = step_ids.try_emplace(key, static_cast<uint32_t>(steps.size()));
    if (fresh) steps.push_back(s);
    return id;
  };
  // The root frames of a context's lines (event, command), as text: contexts that print
  // alike share one root.
  std::vector<std::string> root_text;
  std::unordered_map<std::string, uint32_t> root_ids;
  std::vector<uint32_t> root_of_context(t.context_count(), kNoStep);
  const auto append = [](std::string& line, const std::string& name, const char* suffix) {
    if (!line.empty()) line += ';';
    line += name;
    line += suffix;
  };
  std::vector<uint32_t> stack_of(p.nodes.size(), kNoStep);
  for (NodeId n = 0; n < p.nodes.size(); ++n) {
    const StackNode& node = p.nodes[n];
    if (node.parent == kNoNode) {
      uint32_t& root = root_of_context[node.value];
      if (root == kNoStep) {
        const Context& c = t.context_of(node.value);
        std::string line;
        if (o.event_frame) append(line, safe(t.events[c.event]), "");
        if (o.comm_frame) append(line, safe(t.comms[c.comm]), "");
        auto [it, fresh] = root_ids.try_emplace(line, static_cast<uint32_t>(root_text.size()));
        if (fresh) root_text.push_back(std::move(line));
        root = intern({kNoStep, it->second, false});
      }
      stack_of[n] = root;
      continue;
    }
    uint32_t s = stack_of[node.parent];
    for (const FunctionRef& r : t.frame_functions[node.value])
      if (o.inlines || !r.inlined()) s = intern({s, r.id, r.inlined()});
    stack_of[n] = s;
  }
  std::vector<uint64_t> count(steps.size(), 0);
  if (o.weight.empty()) {
    for (NodeId n = 0; n < p.nodes.size(); ++n)
      if (p.self[n] != 0 && !p.is_root(n)) count[stack_of[n]] += p.self[n];
  } else {
    std::vector<uint32_t> event(p.nodes.size());  // parents come before their children
    for (NodeId n = 0; n < p.nodes.size(); ++n) {
      const StackNode& node = p.nodes[n];
      event[n] = node.parent == kNoNode ? t.context_of(node.value).event : event[node.parent];
      if (p.self[n] != 0 && node.parent != kNoNode)
        count[stack_of[n]] += p.self[n] * o.weight[event[n]];
    }
  }

  std::vector<std::string> function_names(t.functions.size());
  std::vector<bool> escaped(t.functions.size(), false);
  const FunctionLabels label(t);
  const auto function_name = [&](uint32_t id) -> const std::string& {
    if (!escaped[id]) {
      function_names[id] = safe(label(id));
      escaped[id] = true;
    }
    return function_names[id];
  };
  std::vector<uint32_t> path;
  const auto path_of = [&](uint32_t s) -> uint32_t {  // the root's step; the rest in `path`
    path.clear();
    uint32_t at = s;
    for (; steps[at].parent != kNoStep; at = steps[at].parent) path.push_back(at);
    return at;
  };
  const auto suffix = [&](const Step& st) {
    return t.functions[st.fn].kernel ? "_[k]" : st.inlined ? "_[i]" : "";
  };
  // The lines are sorted without comparing their text. A line is a sequence of tokens: each
  // frame's text with the ';' after it, the last frame's text alone (the root's frames are
  // the parts of its text). No frame's text holds a ';', so a token that begins another at
  // the same place is the last of its line, and two lines compare as their tokens do. Each
  // distinct token text gets a rank; a line becomes its ranks, stored big-endian so that
  // memcmp orders them, and those short sequences are sorted (comparing the texts' long
  // shared beginnings took 6% of a 20,000-sample report's instructions).
  constexpr uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::string> token_text;
  std::vector<uint32_t> fn_token(t.functions.size() * 4, kNone);  // fn, inlined, last
  const auto fn_token_of = [&](const Step& st, bool last) {
    uint32_t& id = fn_token[size_t{st.fn} * 4 + (st.inlined ? 2 : 0) + (last ? 1 : 0)];
    if (id == kNone) {
      id = static_cast<uint32_t>(token_text.size());
      std::string text = function_name(st.fn);
      text += suffix(st);
      if (!last) text += ';';
      token_text.push_back(std::move(text));
    }
    return id;
  };
  std::vector<std::vector<uint32_t>> root_tokens(root_text.size());
  const auto root_tokens_of = [&](uint32_t root) -> const std::vector<uint32_t>& {
    if (root_tokens[root].empty()) {  // an empty root has none to make
      const std::string& r = root_text[root];
      for (size_t from = 0; !r.empty();) {  // every part is followed by a frame
        const size_t semi = std::min(r.find(';', from), r.size());
        root_tokens[root].push_back(static_cast<uint32_t>(token_text.size()));
        token_text.push_back(r.substr(from, semi - from) + ';');
        if (semi == r.size()) break;
        from = semi + 1;
      }
    }
    return root_tokens[root];
  };
  FoldedStacks out;
  std::vector<uint32_t>& seq = out.seq;
  std::vector<FoldedStacks::Line>& lines = out.lines;
  using Line = FoldedStacks::Line;
  for (uint32_t s = 0; s < steps.size(); ++s) {
    if (count[s] == 0) continue;
    const size_t from = seq.size();
    const std::vector<uint32_t>& root = root_tokens_of(steps[path_of(s)].fn);
    seq.insert(seq.end(), root.begin(), root.end());
    for (size_t i = path.size(); i-- > 0;) seq.push_back(fn_token_of(steps[path[i]], i == 0));
    lines.push_back({from, static_cast<uint32_t>(seq.size() - from), count[s], 0});
  }
  std::vector<uint32_t> by_text(token_text.size());
  for (uint32_t i = 0; i < by_text.size(); ++i) by_text[i] = i;
  std::sort(by_text.begin(), by_text.end(),
            [&](uint32_t x, uint32_t y) { return token_text[x] < token_text[y]; });
  std::vector<uint32_t> rank(token_text.size());
  for (size_t i = 0; i < by_text.size(); ++i) {
    const uint32_t id = by_text[i];
    if (i == 0 || token_text[id] != token_text[out.token_of_rank.back()])
      out.token_of_rank.push_back(id);
    rank[id] = boost::endian::native_to_big(static_cast<uint32_t>(out.token_of_rank.size() - 1));
  }
  for (uint32_t& id : seq) id = rank[id];
  const auto rank_to_token = [&](uint32_t r) {
    return out.token_of_rank[boost::endian::big_to_native(r)];
  };
  const auto compare = [&](const Line& x, const Line& y) {
    const int c = std::memcmp(seq.data() + x.from, seq.data() + y.from,
                              std::min(x.size, y.size) * sizeof(uint32_t));
    return c != 0 ? c : (x.size > y.size) - (x.size < y.size);
  };
  std::sort(lines.begin(), lines.end(),
            [&](const Line& x, const Line& y) { return compare(x, y) < 0; });
  // Alike lines are merged (two processes of one command): one line each.
  size_t kept = 0;
  for (size_t i = 0; i < lines.size(); ++kept) {
    lines[kept] = lines[i];
    for (++i; i < lines.size() && compare(lines[i], lines[kept]) == 0; ++i)
      lines[kept].count += lines[i].count;
  }
  lines.resize(kept);
  for (Line& l : lines)
    for (size_t k = l.from; k < l.from + l.size; ++k)
      l.bytes += token_text[rank_to_token(seq[k])].size();
  out.token_text = std::move(token_text);
  return out;
}

}  // namespace

std::vector<std::string> folded_lines(const Profile& p, const Tables& t, const FoldedOptions& o) {
  const FoldedStacks f = folded_stacks(p, t, o);
  std::vector<std::string> out;
  out.reserve(f.lines.size());
  for (const FoldedStacks::Line& l : f.lines) {
    std::string line;
    line.reserve(l.bytes + 21);
    f.append(l, line);
    out.push_back(std::move(line));
  }
  return out;
}

namespace {

// Each line after `prefix` and with its '\n', appended to `out`; `after_line()` after each.
template <class AfterLine>
void append_folded(const FoldedStacks& f, std::string_view prefix, std::string& out,
                   AfterLine&& after_line) {
  for (const FoldedStacks::Line& l : f.lines) {
    out += prefix;
    f.append(l, out);
    out += '\n';
    after_line();
  }
}

}  // namespace

std::string folded_text(const Profile& p, const Tables& t, const FoldedOptions& o,
                        std::string_view prefix) {
  // Written once, from the frames' texts straight into the output: an intermediate text of
  // the lines was nearly as large (2.2 MB at 20,000 samples, 180 more page faults).
  const FoldedStacks f = folded_stacks(p, t, o);
  size_t size = 0;
  for (const FoldedStacks::Line& l : f.lines) size += prefix.size() + l.bytes + 22;
  std::string out;
  out.reserve(size);
  append_folded(f, prefix, out, [] {});
  return out;
}

void folded_text(const Profile& p, const Tables& t, const FoldedOptions& o, std::string_view prefix,
                 const std::function<void(std::string_view)>& write) {
  constexpr size_t kPiece = size_t{128} << 10;  // stays in L2, and few write(2) calls
  const FoldedStacks f = folded_stacks(p, t, o);
  std::string piece;
  piece.reserve(kPiece + 4096);
  append_folded(f, prefix, piece, [&] {
    if (piece.size() < kPiece) return;
    write(piece);
    piece.clear();
  });
  if (!piece.empty()) write(piece);
}

UnresolvedSummary summarize_unresolved(const Profile& p, const Tables& t) {
  UnresolvedSummary s;
  const std::vector<uint64_t> thru = through(p);
  std::unordered_map<ObjectId, std::pair<uint64_t, Unresolved>> by_object;
  for (NodeId n = 0; n < p.nodes.size(); ++n) {
    if (p.is_root(n)) {
      s.samples += thru[n];
      continue;
    }
    const auto& refs = t.frame_functions[p.nodes[n].value];
    const Unresolved why = t.functions[refs.front().id].why;
    s.frames += thru[n];
    s.frame_count[static_cast<int>(why)] += thru[n];
    s.leaf_samples[static_cast<int>(why)] += p.self[n];
    if (why != Unresolved::none && why != Unresolved::no_mapping) {
      auto& e = by_object[t.frames[p.nodes[n].value].where.object];
      e.first += thru[n];
      e.second = why;
    }
  }
  for (const auto& [id, e] : by_object) s.objects.push_back({id, e.first, e.second});
  std::sort(s.objects.begin(), s.objects.end(), [](const auto& a, const auto& b) {
    return a.frames != b.frames ? a.frames > b.frames : a.id < b.id;
  });
  return s;
}

}  // namespace pmcprofile
