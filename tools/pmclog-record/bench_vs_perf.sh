#!/usr/bin/env bash
# Overhead comparison with perf record; prints figures, is not a test.
# Same workload, event, frequency and callchain setting (frame-pointer callchains) for both.
# The slowdown is measured on the command's CPU time (user+sys), which a busy machine
# does not inflate the way it inflates wall time.
# Usage: bench_vs_perf.sh PMCLOG_RECORD [RUNS] -- COMMAND [ARGS...]
set -euo pipefail
rec=$1; shift
runs=3
if [[ $1 != -- ]]; then runs=$1; shift; fi
shift  # --
event=${EVENT:-cpu-clock}
freq=${FREQ:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu() {  # CPU seconds of the command, from /usr/bin/time inside the profiler
  /usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>>"$tmp/log"
}
sum() { awk '{printf "%.3f\n", $1 + $2}' "$tmp/t"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for i in $(seq "$runs"); do
  "/usr/bin/time" -f '%U %S' -o "$tmp/t" "$@" >/dev/null; sum >>"$tmp/base"
  "$rec" -e "$event" -F "$freq" -o "$tmp/p.pmclog" -- /usr/bin/time -f '%U %S' -o "$tmp/t" "$@" \
    >/dev/null 2>"$tmp/rec.err"; sum >>"$tmp/rec"
  grep -o '[0-9]* samples of' "$tmp/rec.err" | awk '{print $1}' >>"$tmp/rec.samples"
  grep -o '[0-9]* lost' "$tmp/rec.err" | awk '{print $1}' >>"$tmp/rec.lost"
  stat -c %s "$tmp/p.pmclog" >>"$tmp/rec.bytes"
  perf record -e "$event" -F "$freq" -g -o "$tmp/perf.data" -- /usr/bin/time -f '%U %S' \
    -o "$tmp/t" "$@" >/dev/null 2>"$tmp/perf.err"; sum >>"$tmp/perf"
  grep -o '([0-9]* samples)' "$tmp/perf.err" | tr -dc '0-9\n' >>"$tmp/perf.samples"
  perf report -i "$tmp/perf.data" --stats 2>/dev/null | awk '/LOST /{print $NF; f=1} END{if(!f)print 0}' \
    >>"$tmp/perf.lost"
  stat -c %s "$tmp/perf.data" >>"$tmp/perf.bytes"
done
b=$(median <"$tmp/base"); r=$(median <"$tmp/rec"); p=$(median <"$tmp/perf")
rs=$(median <"$tmp/rec.samples"); ps=$(median <"$tmp/perf.samples")
rb=$(median <"$tmp/rec.bytes"); pb=$(median <"$tmp/perf.bytes")
printf 'runs %s, event %s, -F %s, median of each\n' "$runs" "$event" "$freq"
printf '%-14s %10s %10s %10s %8s %12s\n' tool cpu_s slowdown samples lost bytes/sample
printf '%-14s %10s %10s %10s %8s %12s\n' alone "$b" 1.000 - - -
printf '%-14s %10s %10.3f %10s %8s %12.1f\n' pmclog-record "$r" "$(echo "$r/$b" | bc -l)" \
  "$rs" "$(median <"$tmp/rec.lost")" "$(echo "$rb/$rs" | bc -l)"
printf '%-14s %10s %10.3f %10s %8s %12.1f\n' "perf record" "$p" "$(echo "$p/$b" | bc -l)" \
  "$ps" "$(median <"$tmp/perf.lost")" "$(echo "$pb/$ps" | bc -l)"
