#!/usr/bin/env bash
# Byte-for-byte comparison of every output of two builds of the tools, for changes that must
# not change what the tools print (a restructuring, a speed-up):
#   scripts/compare_outputs.sh OLD_BIN_DIR NEW_BIN_DIR [LOG...]
# Each tool of both builds runs with the same options on the fixture logs, on synthetic logs
# that NEW's pmclog-write makes once (so both read the same bytes), and on the LOGs given (a
# recording, a stress log); stdout, stderr, the exit status and every file written are
# compared. Exit 0 when all are identical, 1 with the differing runs listed otherwise.
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 OLD_BIN_DIR NEW_BIN_DIR [LOG...]" >&2; exit 2; }
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd)
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

logs=()
for f in "$root"/fixtures/*.pmclog "$root"/fixtures/*/*.pmclog; do logs+=("$f"); done
gen() {  # NAME, then pmclog-write synth options
  local name=$1
  shift
  "$new/pmclog-write" synth -q "$@" -o "$work/$name.pmclog" && logs+=("$work/$name.pmclog")
}
gen synth-m10 -n 20000 --seed 3
gen synth-deep -n 20000 --seed 5 --depth 60 --processes 40
gen synth-l3 -n 5000 --seed 7 --generation L3
gen synth-32be -n 5000 --seed 9 --address-width 4 --byte-order big
gen synth-ibs -n 5000 --seed 11 --ibs
"$new/pmclog-write" synth -q -n 3000 --seed 13 --inject bad-length:0.01 -o "$work/damaged.pmclog" &&
  logs+=("$work/damaged.pmclog")
for f in "$@"; do logs+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done

# Every run: TOOL, then its arguments; LOG stands for the input, OUT for an output file.
runs=(
  "pmclog-dump LOG" "pmclog-dump --format=pmcstat LOG" "pmclog-dump --format=jsonl LOG"
  "pmclog-dump --format=json LOG" "pmclog-dump --explain LOG" "pmclog-dump --stats LOG"
  "pmclog-dump --stats --format=json LOG" "pmclog-dump -k --stats LOG" "pmclog-dump --show-abi LOG"
  "pmclog-validate LOG" "pmclog-validate --format json LOG" "pmclog-validate --strict LOG"
  "pmclog-report LOG" "pmclog-report --format folded LOG" "pmclog-report --format svg LOG"
  "pmclog-report --format callgraph LOG" "pmclog-report --format perf-script LOG"
  "pmclog-report --format speedscope LOG" "pmclog-report --format pprof -o OUT LOG"
  "pmclog-report -k --by comm,pid,tid --sort total LOG" "pmclog-report --by-file LOG LOG"
  "pmclog-report --format svg --icicle --reverse --width 800 --title x<&> LOG"
  "pmclog-report --format folded --comm-frame --user-only LOG"
  "pmclog-report --format top --lines --inline LOG"
  "pmclog-report --format pprof --lines --inline -o OUT LOG"
  "pmclog-report --format speedscope --lines --inline LOG"
  "pmclog-report --format svg --lines --inline LOG"
  "pmclog-report --format folded --inline LOG"
  "pmclog-report --format callgraph --lines --inline LOG"
  "pmclog-report --format perf-script --inline LOG"
  "pmclog-report --format folded -e cpu-clock LOG"
  "pmclog-report --format svg -e cpu-clock LOG"
)
differ=0 total=0
for log in "${logs[@]}"; do
  for run in "${runs[@]}"; do
    read -r -a words <<<"$run"
    tool=${words[0]}
    rm -rf "$work/old" "$work/new"
    for side in old new; do
      dir=$work/run  # one path for both, as messages name the output files
      mkdir -p "$dir"
      bin=$old
      [[ $side == new ]] && bin=$new
      args=()
      for w in "${words[@]:1}"; do
        case $w in LOG) args+=("$log") ;; OUT) args+=("$dir/out") ;; *) args+=("$w") ;; esac
      done
      (cd "$dir" && "$bin/$tool" "${args[@]}" >stdout 2>stderr </dev/null; echo $? >status)
      mv "$dir" "$work/$side"
    done
    total=$((total + 1))
    if ! diff -r "$work/old" "$work/new" >/dev/null; then
      differ=$((differ + 1))
      echo "DIFFERS: $run on ${log#"$root"/}"
      diff -r "$work/old" "$work/new" | head -n 8 | sed 's/^/    /'
    fi
  done
done
echo "compared $total runs on ${#logs[@]} logs: $differ differ"
[[ $differ -eq 0 ]]
