// A program outside the project, built against the installed profile library: the samples
// of a log and how many function rows its top table has.
#include <pmcprofile/pmcprofile.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  pmcprofile::Session s{pmcprofile::Options{}};
  const pmcprofile::InputReport in = s.add_log(argv[1]);
  if (!in.opened || !in.error.empty()) {
    std::fprintf(stderr, "%s\n", in.error.c_str());
    return 1;
  }
  s.symbolize();
  const auto& p = s.profiles().at(0);
  const auto rows = pmcprofile::top_rows(p, s.tables(), s.objects(), pmcprofile::GroupBy{},
                                         pmcprofile::SortKey::self);
  std::printf("%llu samples, %zu rows\n", static_cast<unsigned long long>(p.samples),
              rows.size());
  return rows.empty() ? 1 : 0;
}
