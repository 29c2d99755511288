#!/usr/bin/env bash
# pmclog-report vs perf on the same workload, recorded the same way by both recorders
# (cpu-clock, same frequency, same seconds, callchains through frame pointers).
#   top:    pmclog-report --output top     vs  perf report --stdio --no-children --sort sym
#   folded: pmclog-report --output folded  vs  perf script -F ip,sym
# Whole-process wall time and peak RSS (GNU time), runs interleaved A B A B, medians; then
# samples per second and the ratios. Also pmclog-report's peak RSS for the log given 1x and
# 10x (memory grows with distinct stacks, not samples). Not a test: it prints figures.
# REUSE=1 keeps the recordings already in WORKDIR.
# Usage: run_bench.sh BUILD_DIR [SECONDS_PER_THREAD=25] [FREQ=10000] [RUNS=3] [WORKDIR]
set -euo pipefail
build=${1:?build dir}
secs=${2:-25}
freq=${3:-10000}
runs=${4:-3}
work=${5:-$(mktemp -d)}
bin=$build/bin
mkdir -p "$work"
log=$work/bench.pmclog
data=$work/perf.data

if [ "${REUSE:-0}" = 1 ] && [ -s "$log" ] && [ -s "$data" ]; then
  echo "bench: reusing the recordings in $work" >&2
else
  echo "bench: recording ${secs}s x 2 threads at ${freq} Hz into $work" >&2
  "$bin/pmclog-record" -F "$freq" --depth 64 -o "$log" -- "$bin/bench-report-workload" "$secs" 2>&1 | tail -1 >&2
  perf record -q -e cpu-clock -F "$freq" -g -o "$data" -- "$bin/bench-report-workload" "$secs" >/dev/null 2>&1
fi

samples_pmc=$("$bin/pmclog-report" --output folded "$log" 2>/dev/null | awk '{n += $NF} END {print n}' || true)
samples_perf=$(perf script -i "$data" -F tid 2>/dev/null | wc -l)
depth_pmc=$("$bin/pmclog-report" --output folded "$log" 2>/dev/null |
  awk '{n=$NF; d=split($0, a, ";"); s += n*(d-1); c += n} END {printf "%.1f", s/c}' || true)
echo "samples: pmclog $samples_pmc (mean depth $depth_pmc), perf.data $samples_perf" >&2

# time_of CMD...: prints "seconds peak_kib" of one run, output discarded.
time_of() {
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" || true
  tail -1 "$work/time.txt"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A t m
for kind in top folded; do
  : >"$work/a.txt"; : >"$work/b.txt"
  for ((i = 0; i < runs; i++)); do
    time_of "$bin/pmclog-report" --no-progress --output "$kind" "$log" >>"$work/a.txt"
    if [ "$kind" = top ]; then
      time_of perf report -i "$data" --stdio --no-children --sort sym >>"$work/b.txt"
    else
      time_of perf script -i "$data" -F ip,sym >>"$work/b.txt"
    fi
  done
  t[$kind,a]=$(awk '{print $1}' "$work/a.txt" | median); m[$kind,a]=$(awk '{print $2}' "$work/a.txt" | median)
  t[$kind,b]=$(awk '{print $1}' "$work/b.txt" | median); m[$kind,b]=$(awk '{print $2}' "$work/b.txt" | median)
done

tenx=()
for ((i = 0; i < 10; i++)); do tenx+=("$log"); done
mem1=$(time_of "$bin/pmclog-report" --no-progress --output top "$log")
mem10=$(time_of "$bin/pmclog-report" --no-progress --output top "${tenx[@]}")

rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.01; printf "%.0f", n / s }'; }
printf '%-8s %-44s %10s %14s %10s\n' output tool seconds samples/s peak_MiB
for kind in top folded; do
  if [ "$kind" = top ]; then other="perf report --stdio --no-children --sort sym"; else other="perf script -F ip,sym"; fi
  ra=$(rate "$samples_pmc" "${t[$kind,a]}"); rb=$(rate "$samples_perf" "${t[$kind,b]}")
  printf '%-8s %-44s %10s %14s %10.1f\n' "$kind" "pmclog-report --output $kind" "${t[$kind,a]}" "$ra" "$(awk -v k="${m[$kind,a]}" 'BEGIN{print k/1024}')"
  printf '%-8s %-44s %10s %14s %10.1f\n' "$kind" "$other" "${t[$kind,b]}" "$rb" "$(awk -v k="${m[$kind,b]}" 'BEGIN{print k/1024}')"
  printf '%-8s ratio (samples/s, pmclog-report / perf): %.1fx\n' "$kind" "$(awk -v a="$ra" -v b="$rb" 'BEGIN{print a/b}')"
done
printf 'memory: pmclog-report top, 1x log (%s samples): %s s, %.1f MiB; 10x (%s samples): %s s, %.1f MiB\n' \
  "$samples_pmc" "${mem1% *}" "$(awk -v k="${mem1#* }" 'BEGIN{print k/1024}')" \
  "$((samples_pmc * 10))" "${mem10% *}" "$(awk -v k="${mem10#* }" 'BEGIN{print k/1024}')"
echo "files: $work" >&2
