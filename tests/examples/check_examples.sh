#!/usr/bin/env bash
# Runs the programs of docs/library.md (examples/) and checks them against the tools.
#   check_examples.sh BIN_DIR FIXTURES WORK
set -euo pipefail
bin=$1 fixtures=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
status=0
fail() { echo "FAIL: $*" >&2; status=1; }

# A synthetic log with many processes (fixed seed), the samples of which the tools count.
"$bin/pmclog-write" synth -q -n 3000 --processes 6 --seed 7 -o "$work/synth.pmclog"

# count_samples: per pid, the same as pmclog-dump --stats (every row).
"$bin/example-count_samples" "$work/synth.pmclog" >"$work/count.txt"
"$bin/pmclog-dump" --stats --format=json --top all "$work/synth.pmclog" |
  jq -r '.by_process.rows[] | "pid \(.pid): \(.samples) samples"' | sort >"$work/stats.txt"
# count_samples has every sample pid, pmclog-dump rows only of processes with samples.
sort "$work/count.txt" | diff - "$work/stats.txt" >/dev/null ||
  fail "count_samples differs from pmclog-dump --stats: $(sort "$work/count.txt" | diff - "$work/stats.txt")"
[[ $(wc -l <"$work/count.txt") -ge 2 ]] || fail "count_samples found fewer than 2 processes"

# write_log: a valid log (strict: warnings fail too) with the five samples it writes, in pid 100.
"$bin/example-write_log" "$work/written.pmclog"
"$bin/pmclog-validate" --strict -q "$work/written.pmclog" ||
  fail "write_log's log does not validate: $("$bin/pmclog-validate" --strict "$work/written.pmclog")"
[[ $("$bin/example-count_samples" "$work/written.pmclog") == "pid 100: 5 samples" ]] ||
  fail "write_log's log: $("$bin/example-count_samples" "$work/written.pmclog")"
[[ $("$bin/pmclog-dump" --show-abi "$work/written.pmclog" | head -1) == *M10* ]] ||
  fail "write_log's log is not M10"

# validate_buffer: a good log has no damage and as many records as pmclog-dump counts.
out=$("$bin/example-validate_buffer" "$work/synth.pmclog") || fail "validate_buffer on a good log: $out"
records=$("$bin/pmclog-dump" --stats --format=json "$work/synth.pmclog" | jq .records)
[[ $out == *": $records records, 0 damaged" ]] || fail "validate_buffer: '$out', want $records records"
# A bad magic byte in the 3rd record: reported at that record's offset, and reading goes on.
third=$("$bin/pmclog-dump" --format=jsonl "$work/synth.pmclog" | sed -n 3p | jq .offset)
cp "$work/synth.pmclog" "$work/bad.pmclog"
printf '\x00' | dd of="$work/bad.pmclog" bs=1 seek=$((third + 3)) conv=notrunc status=none
set +e
out=$("$bin/example-validate_buffer" "$work/bad.pmclog")
rc=$?
set -e
[[ $rc == 1 ]] || fail "validate_buffer on a damaged log exited $rc"
[[ $out == *"error at offset $third:"* ]] || fail "validate_buffer did not report offset $third: $out"
[[ $out == *" damaged" && $out != *" 0 damaged" ]] || fail "validate_buffer: $out"
after=$(tail -1 <<<"$out" | sed 's/.*: \([0-9]*\) records.*/\1/')
((after >= records - 2)) || fail "validate_buffer stopped at the damage: $after of $records records"

# top_functions: as many samples as count_samples, and the rows' self samples add up to it.
total=$(awk '{s += $3} END {print s}' "$work/count.txt")
out=$("$bin/example-top_functions" "$work/synth.pmclog" 100000)
[[ $(head -1 <<<"$out") == "$total samples" ]] || fail "top_functions: $(head -1 <<<"$out"), want $total"
self=$(tail -n +2 <<<"$out" | awk '{s += $1} END {print s}')
((self == total)) || fail "top_functions rows add up to $self self samples, not $total"
# The first row is the one pmclog-report puts first when grouped the same way.
first=$(sed -n 2p <<<"$out" | awk '{print $3}')
"$bin/pmclog-report" --by object,symbol --limit 1 "$work/synth.pmclog" >"$work/report.txt"
grep -qF -- "$first" "$work/report.txt" || fail "top_functions' first row '$first' is not pmclog-report's: $(cat "$work/report.txt")"

((status == 0)) && rm -rf "$work" && echo "examples: all four agree with the tools"
exit $status
