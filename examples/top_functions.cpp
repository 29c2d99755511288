// Builds a profile from a log and prints its top functions by self samples, as
// `pmclog-report --format top` does, with symbols from the objects the log names.
//   top_functions LOG [N]
#include <pmcprofile/pmcprofile.h>
#include <pmcprofile/views.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: top_functions LOG [N]\n");
    return 2;
  }
  const size_t n = argc == 3 ? std::strtoul(argv[2], nullptr, 10) : 10;

  pmcprofile::Options opt;  // defaults: objects at the paths the log names, every sample
  pmcprofile::Session session(opt);
  const pmcprofile::InputReport in = session.add_log(argv[1]);
  if (!in.opened || !in.error.empty()) {
    std::fprintf(stderr, "%s: %s\n", in.name.c_str(), in.error.c_str());
    return 1;
  }
  session.symbolize();  // each distinct frame once

  const pmcprofile::Profile& p = session.profiles().at(0);
  const pmcprofile::Tables& t = session.tables();
  pmcprofile::GroupBy by;
  by.comm = false;  // one row per (object, function)
  const auto rows = pmcprofile::top_rows(p, t, session.objects(), by, pmcprofile::SortKey::self);

  std::printf("%llu samples\n", static_cast<unsigned long long>(p.samples));
  for (size_t i = 0; i < rows.size() && i < n; ++i)
    std::printf("%8llu %8llu  %s\n", static_cast<unsigned long long>(rows[i].self),
                static_cast<unsigned long long>(rows[i].total),
                pmcprofile::function_label(t.functions[rows[i].function]).c_str());
  return 0;
}
