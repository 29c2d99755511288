#!/usr/bin/env bash
# The main job: set up, build, and show what pmclog-dump makes of a log written by FreeBSD's
# own kernel writer code (the bundled golden L3 log): the detected ABI with its evidence, the
# --stats summary, and its first records.
#   bash scripts/run.sh                 # the bundled log, as above
#   bash scripts/run.sh FILE [OPTIONS]  # pmclog-dump OPTIONS FILE
#   bash scripts/run.sh --stats         # options without a file: the bundled log
set -euo pipefail
cd "$(dirname "$0")/.."
bundled=fixtures/golden/seed-lp64-le.pmclog
echo "run.sh: installing packages if needed and building pmclog-dump (the first run takes a few minutes)..." >&2
bash scripts/setup.sh >/dev/null
# Its own build folder, so that the tests-off configuration never lands in a developer's build/.
cmake -S . -B build-run -DCMAKE_BUILD_TYPE=Release -DPMCLOG_BUILD_TESTS=OFF -DPMCLOG_BUILD_BENCH=OFF >/dev/null
cmake --build build-run -j"$(nproc)" --target pmclog-dump >/dev/null
dump=build-run/bin/pmclog-dump

if (($# == 0)); then
  echo "== $bundled: written by FreeBSD's own writer code; what was detected, and why"
  "$dump" --show-abi "$bundled"
  echo
  echo "== summary (pmclog-dump --stats)"
  "$dump" --stats --top 5 "$bundled"
  echo
  echo "== the first records (pmclog-dump --head 3)"
  exec "$dump" --head 3 "$bundled"
fi

# Options alone (no argument names an existing file or standard input): the bundled log.
for a in "$@"; do
  if [[ $a == - || -e $a ]]; then exec "$dump" "$@"; fi
done
exec "$dump" "$@" "$bundled"
