#!/usr/bin/env bash
# Every pmclog-report output on one log, against `--format folded` in the same run: whole
# process wall time and peak RSS (GNU time), runs interleaved (folded, KIND, folded, KIND...),
# medians; samples per second, output size; then the SVG's render time in headless Chromium
# against an empty SVG (Chromium's own start-up). Not a test: it prints figures.
# The log is only read; outputs go to a folder of their own (WORKDIR, default a new one).
# With PERF_DATA=perf.data (a recording of the same workload, as bench/run --keep leaves), plain
# `perf script` on it is timed in the same runs as --format perf-script.
# Usage: [PERF_DATA=FILE] outputs_bench.sh BUILD_DIR LOG [RUNS=3] [WORKDIR]
set -euo pipefail
build=${1:?build dir}
log=${2:?log (e.g. a recording bench/run --keep leaves)}
runs=${3:-3}
work=${4:-$(mktemp -d)}
bin=$build/bin
mkdir -p "$work"
case "$(realpath -m "$work")/" in "$(realpath -m "$log")"/*) echo "WORKDIR inside LOG?" >&2; exit 2 ;; esac

samples=$("$bin/pmclog-report" --no-progress --format folded "$log" 2>/dev/null | awk '{n += $NF} END {print n}')
echo "log: $log, $samples samples" >&2

# time_of OUT CMD...: "seconds peak_kib" of one run.
time_of() {
  local out=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >"$out" 2>"$work/stderr.txt" || {
    cat "$work/stderr.txt" >&2
    return 1
  }
  tail -1 "$work/time.txt"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.01; printf "%.0f", n / s }'; }

kinds=(top svg pprof callgraph perf-script speedscope)
printf '| output | seconds (median of %d) | samples/s | peak MiB | output bytes | folded in the same runs | ratio to folded |\n' "$runs"
printf '|---|---|---|---|---|---|---|\n'
: >"$work/p.txt"
for kind in "${kinds[@]}"; do
  : >"$work/a.txt"
  : >"$work/f.txt"
  out=$work/out.$kind
  for ((i = 0; i < runs; i++)); do
    time_of /dev/null "$bin/pmclog-report" --no-progress --format folded "$log" >>"$work/f.txt"
    time_of /dev/null "$bin/pmclog-report" --no-progress --format "$kind" -o "$out" "$log" >>"$work/a.txt"
    if [ "$kind" = perf-script ] && [ -n "${PERF_DATA:-}" ]; then
      time_of /dev/null perf script -i "$PERF_DATA" >>"$work/p.txt"
    fi
  done
  ta=$(awk '{print $1}' "$work/a.txt" | median)
  ma=$(awk '{print $2}' "$work/a.txt" | median)
  tf=$(awk '{print $1}' "$work/f.txt" | median)
  printf '| %s | %s | %s | %.1f | %s | %s s | %.2f |\n' "$kind" "$ta" "$(rate "$samples" "$ta")" \
    "$(awk -v k="$ma" 'BEGIN{print k/1024}')" "$(stat -c %s "$out")" "$tf" \
    "$(awk -v a="$ta" -v b="$tf" 'BEGIN{ if (a <= 0) a = 0.01; print b / a }')"
  [ "$kind" = svg ] || rm -f "$out"  # perf-script's text is gigabytes
done
if [ -s "$work/p.txt" ]; then
  n=$(perf script -i "$PERF_DATA" -F tid 2>/dev/null | wc -l)
  tp=$(awk '{print $1}' "$work/p.txt" | median)
  printf '
perf script -i %s (%s samples), in the perf-script runs: %s s, %s samples/s
' \
    "$PERF_DATA" "$n" "$tp" "$(rate "$n" "$tp")"
fi

# The SVG in headless Chromium: a screenshot of the graph against one of an empty SVG.
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chromium" ]; then
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="400"/>\n' >"$work/empty.svg"
  : >"$work/r.txt"
  : >"$work/e.txt"
  shot() {
    /usr/bin/time -f "%e" -o "$work/time.txt" "$chromium" --headless --no-sandbox --disable-gpu \
      --hide-scrollbars --user-data-dir="$work/chromium-profile" --window-size=1200,1200 \
      --screenshot="$work/shot.png" "file://$1" >/dev/null 2>&1
    tail -1 "$work/time.txt"
  }
  for ((i = 0; i < runs; i++)); do
    shot "$work/empty.svg" >>"$work/e.txt"
    shot "$work/out.svg" >>"$work/r.txt"
  done
  tr=$(median <"$work/r.txt")
  te=$(median <"$work/e.txt")
  printf '\nsvg in headless Chromium: %s s to render and screenshot (empty SVG: %s s; the graph: %.2f s more); %s bytes, %s frames\n' \
    "$tr" "$te" "$(awk -v a="$tr" -v b="$te" 'BEGIN{print a - b}')" "$(stat -c %s "$work/out.svg")" \
    "$(grep -o '<g' "$work/out.svg" | wc -l)"
fi
echo "files: $work" >&2
