#include "print_callgraph.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "pmclog/text.h"
#include "pmcprofile/views.h"

namespace report {
namespace {

// The callee-first tree of one event: node 0 is a hidden root whose children are the
// sampled leaf functions; a node's children are its callers (pmcpl_callgraph.c's cgnodes).
struct Tree {
  struct Node {
    pmcprofile::FunctionId function = 0;
    uint64_t count = 0;  // samples through this path
    std::vector<uint32_t> children;
  };
  std::vector<Node> nodes{Node{}};
  std::unordered_map<uint64_t, uint32_t> index;  // parent << 32 | function

  uint32_t child(uint32_t parent, pmcprofile::FunctionId f) {
    auto [it, fresh] = index.try_emplace(uint64_t{parent} << 32 | f,
                                         static_cast<uint32_t>(nodes.size()));
    if (fresh) {
      nodes.push_back({f, 0, {}});
      nodes[parent].children.push_back(it->second);
    }
    return it->second;
  }
};

// stackcollapse-pmc.pl and speedscope's importer read a name as \S+: a name keeps no white
// space (pmcstat's C names never have any; demangled C++ and our labels may). Control
// characters are escaped as everywhere else in text output.
std::string graph_name(const std::string& name) {
  std::string out = pmclog::terminal_safe(name);
  for (char& c : out)
    if (c == ' ') c = '_';
  return out;
}

class Printer {
 public:
  Printer(const Tree& t, const std::vector<std::string>& names,
          const std::vector<pmcprofile::ObjectId>& objects, const std::vector<std::string>& paths,
          std::string& out)
      : t_(t), names_(names), objects_(objects), paths_(paths), out_(out) {}

  // pmcstat_cgnode_print: DEPTH spaces, the share of the parent's samples, " [N] " padded to
  // 12 columns, DEPTH spaces again, the name, and " @ OBJECT" when the object changes.
  // Depth first, callers by count, without recursion (chains can be thousands deep).
  void print(uint32_t top, uint64_t total) {
    struct Item {
      uint32_t node;
      size_t depth;
      uint64_t parent_total;
    };
    std::vector<Item> todo{{top, 0, total}};
    while (!todo.empty()) {
      const Item it = todo.back();
      todo.pop_back();
      line(it.node, it.depth, it.parent_total);
      const Tree::Node& node = t_.nodes[it.node];
      const std::vector<uint32_t> c = sorted(node.children);
      for (size_t i = c.size(); i-- > 0;) todo.push_back({c[i], it.depth + 1, node.count});
    }
  }

  void line(uint32_t n, size_t depth, uint64_t parent_total) {
    const Tree::Node& node = t_.nodes[n];
    char buf[64];
    out_.append(depth, ' ');
    if (node.count == parent_total) {
      out_ += "100.0% ";
    } else {
      std::snprintf(buf, sizeof buf, "%05.2f%% ",
                    100.0 * static_cast<double>(node.count) / static_cast<double>(parent_total));
      out_ += buf;
    }
    const int w = std::snprintf(buf, sizeof buf, " [%llu] ", static_cast<unsigned long long>(node.count));
    out_ += buf;
    if (w < 12) out_.append(static_cast<size_t>(12 - w), ' ');
    out_.append(depth, ' ');
    out_ += names_[node.function];
    const pmcprofile::ObjectId o = objects_[node.function];
    // Frames outside every mapping have no object: nothing to name, nothing changes.
    if (o != pmcprofile::kNoObject && o != last_object_) {
      last_object_ = o;
      out_ += " @ ";
      out_ += paths_[o];
    }
    out_ += '\n';
  }
  void start_tree() { last_object_ = pmcprofile::kNoObject; }

  // Most samples first (pmcstat's qsort by count); ties by name, so the text is stable.
  std::vector<uint32_t> sorted(std::vector<uint32_t> c) const {
    std::sort(c.begin(), c.end(), [&](uint32_t a, uint32_t b) {
      const auto& x = t_.nodes[a];
      const auto& y = t_.nodes[b];
      if (x.count != y.count) return x.count > y.count;
      if (names_[x.function] != names_[y.function]) return names_[x.function] < names_[y.function];
      return x.function < y.function;
    });
    return c;
  }

 private:
  const Tree& t_;
  const std::vector<std::string>& names_;
  const std::vector<pmcprofile::ObjectId>& objects_;
  const std::vector<std::string>& paths_;
  std::string& out_;
  pmcprofile::ObjectId last_object_ = pmcprofile::kNoObject;
};

}  // namespace

std::string format_callgraph(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                             const CallgraphOptions& o) {
  const pmcprofile::Tables& t = in.tables;
  // One tree per distinct event.
  std::vector<Tree> trees(t.distinct_events.first.size());
  // pmcstat -z N keeps N frames of each chain, the sampled one included
  // (pmcpl_cg_process: `for (n = 1; n < pa_graphdepth ...)`).
  const size_t depth = std::max<size_t>(o.depth, 1);
  pmcprofile::for_each_function_stack(
      p, t, o.inlines,
      [&](uint32_t ctx, std::span<const pmcprofile::FunctionRef> stack, uint64_t n) {
        if (stack.empty()) return;
        Tree& tree = trees[t.distinct_events.of[t.context_of(ctx).event]];
        uint32_t at = 0;
        size_t kept = 0;
        for (size_t i = stack.size(); i-- > 0 && kept < depth; ++kept) {
          at = tree.child(at, stack[i].id);
          tree.nodes[at].count += n;
        }
        tree.nodes[0].count += n;
      });

  std::vector<std::string> names(t.functions.size());
  std::vector<pmcprofile::ObjectId> objects(t.functions.size());
  const pmcprofile::FunctionLabels label(t);
  for (pmcprofile::FunctionId f = 0; f < t.functions.size(); ++f) {
    names[f] = graph_name(label(f));
    objects[f] = t.functions[f].object;
  }
  std::vector<std::string> paths(in.objects.size());
  for (pmcprofile::ObjectId id = 0; id < paths.size(); ++id)
    paths[id] = pmclog::terminal_safe(in.objects.peek(id).path);

  std::string out;
  // --by-file: one header per input. It starts with '#', so stackcollapse-pmc.pl and
  // speedscope (both match lines by ^( *)[0-9.]+%  \[) skip it.
  if (!p.name.empty()) out += "# Input: " + pmclog::terminal_safe(p.name) + "\n\n";
  if (!o.caveat.empty()) out += "# Note: " + o.caveat + "\n\n";
  for (uint32_t e : t.distinct_events.by_name) {
    const Tree& tree = trees[e];
    if (tree.nodes[0].count == 0) continue;
    out += "@ " + pmclog::terminal_safe(t.events[t.distinct_events.first[e]]) + " [" +
           std::to_string(tree.nodes[0].count) +
           " samples]\n\n";
    Printer pr(tree, names, objects, paths, out);
    for (uint32_t top : pr.sorted(tree.nodes[0].children)) {
      pr.start_tree();
      pr.print(top, tree.nodes[0].count);
      out += '\n';
    }
  }
  return out;
}

}  // namespace report
