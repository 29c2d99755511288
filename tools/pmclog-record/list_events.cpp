// --list-events: each known event, opened once to see whether this machine counts it.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "events_table.h"
#include "perf_open.h"
#include "session.h"
#include "stdout_sink.h"

namespace record {

int list_events() {
  auto& out = pmclog::tools::standard_output();
  char line[512];
  auto row = [&](const char* a, const char* b, const char* c, const char* d) {
    std::snprintf(line, sizeof line, "%-18s %-10s %-30s %s\n", a, b, c, d);
    out.write(line);
  };
  row("EVENT", "KIND", "ALIASES", "ON THIS MACHINE");
  for (const auto& ev : known_events()) {
    if (out.closed()) return 0;  // the reader went away: nothing more to open
    std::string aliases;
    for (const auto& a : event_aliases())
      if (a.name == ev.name && a.alias != ev.name) {
        if (!aliases.empty()) aliases += ',';
        aliases += a.alias;
      }
    perf_event_attr a{};
    a.type = ev.type;
    a.config = ev.config;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    int fd = perf_open(a, 0, -1, -1);
    std::string status;
    if (fd >= 0) {
      status = "supported";
      close(fd);
    } else {
      int e = errno;
      status = std::string("not supported: ") + std::strerror(e);
      if (ev.hardware && (e == ENOENT || e == ENODEV || e == EOPNOTSUPP))
        status += " (no hardware PMU; --fallback uses " + ev.fallback + ")";
    }
    row(ev.name.c_str(), ev.hardware ? "hardware" : "software",
        aliases.empty() ? "-" : aliases.c_str(), status.c_str());
  }
  row("rXXXX", "raw", "-", "hexadecimal PMU event code");
  return 0;
}

}  // namespace record
