#!/usr/bin/env bash
# The main job: set up, build, and run pmclog-dump on a log (default: the bundled golden log
# written by FreeBSD 9.3's own writer code). Extra arguments go to pmclog-dump.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPMCLOG_BUILD_TESTS=OFF -DPMCLOG_BUILD_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc)" --target pmclog-dump >/dev/null
if (($# == 0)); then
  set -- fixtures/golden/seed-lp64-le.pmclog
fi
exec build/bin/pmclog-dump "$@"
