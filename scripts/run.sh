#!/usr/bin/env bash
# The main job, on a fresh machine: set up, build, record a bundled workload with
# pmclog-record (the software cpu-clock, which needs no hardware counter), validate the log,
# print where the time went with symbols, write the folded stacks, and say where the files
# are. Then what the toolkit makes of a log written by FreeBSD's own kernel writer code:
# its detected ABI with the evidence, its --stats summary and its first records.
#   bash scripts/run.sh                 # as above; files in a new folder under /tmp
#   bash scripts/run.sh FILE [OPTIONS]  # pmclog-dump OPTIONS FILE
#   bash scripts/run.sh --stats         # options without a file: the bundled FreeBSD log
set -euo pipefail
cd "$(dirname "$0")/.."
bundled=fixtures/golden/seed-lp64-le.pmclog
bin=build-run/bin
echo "run.sh: installing packages if needed and building the tools (the first run takes a few minutes)..." >&2
bash scripts/setup.sh >/dev/null
# Its own build folder, so that this configuration never lands in a developer's build/.
cmake -S . -B build-run -DCMAKE_BUILD_TYPE=Release -DPMCLOG_BUILD_BENCH=OFF >/dev/null
if (($# > 0)); then
  cmake --build build-run -j"$(nproc)" --target pmclog-dump >/dev/null
  # Options alone (no argument names an existing file or standard input): the bundled log.
  for a in "$@"; do
    if [[ $a == - || -e $a ]]; then exec "$bin/pmclog-dump" "$@"; fi
  done
  exec "$bin/pmclog-dump" "$@" "$bundled"
fi

# The workload is the report tests' own: a PIE whose time goes to one known call chain,
# built without frame pointers as Debian builds its programs, so its stacks are unwound from
# their CFI (--call-graph dwarf).
cmake --build build-run -j"$(nproc)" --target pmclog-record pmclog-validate pmclog-report \
  pmclog-dump report-workload-hot-nofp >/dev/null
out=$(mktemp -d "${TMPDIR:-/tmp}/pmclog-run.XXXXXX")
log=$out/hot.pmclog
echo "== recording a bundled workload for 2 CPU seconds (pmclog-record -e cpu-clock --call-graph dwarf)"
"$bin/pmclog-record" -e cpu-clock --call-graph dwarf -o "$log" -- "$bin/report-workload-hot-nofp" 2
echo
echo "== checking the log (pmclog-validate)"
"$bin/pmclog-validate" "$log"
echo
echo "== where the time went (pmclog-report, top 8 functions)"
"$bin/pmclog-report" --limit 8 --format top,folded,svg -o "$out/top.txt" -o "$out/hot.folded" \
  -o "$out/flame.svg" "$log"
cat "$out/top.txt"
echo
echo "== its hottest whole stack (hot.folded, root first)"
awk '{print $NF "\t" $0}' "$out/hot.folded" | sort -n -r | head -n 1 | cut -f 2-
echo
echo "== a log written by FreeBSD's own writer code: the ABI its bytes give, and why"
"$bin/pmclog-dump" --show-abi "$bundled"
echo
echo "== its summary (pmclog-dump --stats --top 3) and first records (--head 3)"
"$bin/pmclog-dump" --stats --top 3 "$bundled"
"$bin/pmclog-dump" --head 3 "$bundled"
echo
echo "files (in $out):"
echo "  hot.pmclog   the log      pmclog-dump $log | less"
echo "  top.txt      the profile  pmclog-report --help for more views"
echo "  hot.folded   folded stacks, for flamegraph.pl, inferno or speedscope"
echo "  flame.svg    the flame graph: open it in a browser (click to zoom, Ctrl-F to search)"
