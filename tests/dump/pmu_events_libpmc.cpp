// A stand-in for FreeBSD's libpmc as far as its pmu-events tables go (format.md §12.2), built
// as a shared library and as an archive in each struct layout and cpuid rule:
//   PMU_POINTERS  11 or 12 pointers per struct pmu_event (12: with `alias` last)
//   PMU_REGEX     1: the library calls regexec(), as 12-era trees matching cpuids by regex
//   PMU_DAMAGED   1: a map entry with a cpuid but a NULL table
// The tables are static, the map global, as FreeBSD's generator writes them. The tests know
// these names: index 0x6a of the Silvermont table is cpu_clk_unhalted.core_p, after a block
// of nameless (metric) entries that an index counts as well.
#if PMU_REGEX
#include <regex.h>
#endif

struct pmu_event {
  const char* name;
  const char* event;
  const char* desc;
  const char* topic;
  const char* long_desc;
  const char* pmu;
  const char* unit;
  const char* perpkg;
  const char* metric_expr;
  const char* metric_name;
  const char* metric_group;
#if PMU_POINTERS == 12
  const char* alias;
#endif
};

struct pmu_events_map {
  const char* cpuid;
  const char* version;
  const char* type;
  pmu_event* table;
};

// Named events: name, event, desc, topic (and an alias in the 12-pointer layout, as later
// trees have); metrics: no name, no event, but a description and an expression; the end: NULL.
#define N nullptr
#if PMU_POINTERS == 12
#define EV(n, t) {n, "event=0x3c", "A test event", t, N, N, N, N, N, N, N, "alias"}
#define METRIC {N, N, "A metric", "metrics", N, N, N, N, "a / b", "ipc", "group", N}
#define END {N, N, N, N, N, N, N, N, N, N, N, N}
#else
#define EV(n, t) {n, "event=0x3c", "A test event", t, N, N, N, N, N, N, N}
#define METRIC {N, N, "A metric", "metrics", N, N, N, N, "a / b", "ipc", "group"}
#define END {N, N, N, N, N, N, N, N, N, N, N}
#endif
#define EV16(p, t)                                                                                      \
  EV(p "0", t), EV(p "1", t), EV(p "2", t), EV(p "3", t), EV(p "4", t), EV(p "5", t), EV(p "6", t),     \
      EV(p "7", t), EV(p "8", t), EV(p "9", t), EV(p "a", t), EV(p "b", t), EV(p "c", t), EV(p "d", t), \
      EV(p "e", t), EV(p "f", t)
#define METRIC16 METRIC, METRIC, METRIC, METRIC, METRIC, METRIC, METRIC, METRIC, METRIC, METRIC, \
    METRIC, METRIC, METRIC, METRIC, METRIC, METRIC

// Index 0x00..0x5f: three named blocks around two nameless ones, then 0x60..0x69 named.
static pmu_event pme_silvermont[] = {
    EV16("slm.0", "pipeline"), METRIC16, EV16("slm.2", "cache"), METRIC16, EV16("slm.4", "memory"),
    EV16("slm.5", "other"),
    EV("slm.60", "x"), EV("slm.61", "x"), EV("slm.62", "x"), EV("slm.63", "x"), EV("slm.64", "x"),
    EV("slm.65", "x"), EV("slm.66", "x"), EV("slm.67", "x"), EV("slm.68", "x"), EV("slm.69", "x"),
    EV("cpu_clk_unhalted.core_p", "pipeline"),  // 0x6a
    EV("inst_retired.any_p", "pipeline"),       // 0x6b
    METRIC,                                     // 0x6c
    END};

// Another CPU's table: the same index names something else there.
static pmu_event pme_skylakex[] = {
    EV16("skx.0", "pipeline"), EV16("skx.1", "pipeline"), EV16("skx.2", "pipeline"),
    EV16("skx.3", "pipeline"), EV16("skx.4", "pipeline"), EV16("skx.5", "pipeline"),
    EV16("skx.6", "pipeline"), END};

extern "C" {
#if PMU_DAMAGED
pmu_events_map pmu_events_map[] = {
    {"GenuineIntel-6-55-4", "v1", "core", pme_skylakex},
    {"GenuineIntel-6-4D-8", "v13", "core", nullptr},
    {"GenuineIntel-6-4C-1", "v13", "core", pme_silvermont},
    {nullptr, nullptr, nullptr, nullptr},
};
#elif PMU_REGEX
// Regular expressions: only the second matches "GenuineIntel-6-4D-8" (up to its stepping).
pmu_events_map pmu_events_map[] = {
    {"GenuineIntel-6-55", "v1", "core", pme_skylakex},
    {"GenuineIntel-6-4[CD]", "v13", "core", pme_silvermont},
    {nullptr, nullptr, nullptr, nullptr},
};

// What makes the library a regex-era one: it calls regexec().
int pmu_test_cpuid_matches(const char* expr, const char* cpuid) {
  regex_t re;
  if (regcomp(&re, expr, REG_EXTENDED) != 0) return 0;
  const int hit = regexec(&re, cpuid, 0, nullptr, 0) == 0;
  regfree(&re);
  return hit;
}
#else
// Exact strings: the first entry, read as a regular expression, would match as well; an
// exact compare chooses the third.
pmu_events_map pmu_events_map[] = {
    {"GenuineIntel-6-4[CD]", "v1", "core", pme_skylakex},
    {"GenuineIntel-6-55-4", "v1", "core", pme_skylakex},
    {"GenuineIntel-6-4D-8", "v13", "core", pme_silvermont},
    {nullptr, nullptr, nullptr, nullptr},
};
#endif
}
