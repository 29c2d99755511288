#!/bin/bash
# A benchmark never writes or removes a file it did not create. Run by
# ctest with tiny sizes, so it takes well under a second per mode:
#   keeps_input_test.sh decode   BENCH FIXTURES_DIR   (pmclog-bench-decode)
#   keeps_input_test.sh validate BENCH FIXTURES_DIR   (validate_bench)
#   keeps_input_test.sh write    BENCH                (bench-write)
set -u
mode=$1
bench=$2
fixtures=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# A copy of a fixture with an old mtime: any write, even of the same bytes, moves the mtime.
precious() {
  cp "$1" "$2" && touch -d @1000000000 "$2"
}

# The file still exists with the bytes of $2 and the old mtime.
unchanged() {
  if [ ! -f "$1" ]; then
    fail "$1 was removed"
  elif ! cmp -s "$1" "$2"; then
    fail "$1 was overwritten"
  elif [ "$(stat -c %Y "$1")" != 1000000000 ]; then
    fail "$1 was written (mtime $(stat -c %Y "$1"))"
  fi
}

# The folder $1 is empty.
empty() {
  [ -z "$(ls -A "$1")" ] || fail "$1 was left holding: $(ls -A "$1" | tr '\n' ' ')"
}

case $mode in
decode)
  # --file: read-only, the ABI detected from the bytes (not the L3 default).
  mkdir "$work/tmp"
  precious "$fixtures/M10-64-be.pmclog" "$work/in.pmclog"
  out=$(TMPDIR="$work/tmp" "$bench" --file "$work/in.pmclog" --runs 1 2>&1) || fail "--file run: $out"
  unchanged "$work/in.pmclog" "$fixtures/M10-64-be.pmclog"
  grep -q "M10, 64-bit addresses, big-endian" <<<"$out" || fail "--file did not detect the ABI: $out"
  empty "$work/tmp"
  # --generate refuses an existing file and leaves it alone.
  precious "$fixtures/L3-64-le.pmclog" "$work/existing.pmclog"
  TMPDIR="$work/tmp" "$bench" --generate "$work/existing.pmclog" --size-mib 1 --runs 1 >/dev/null 2>&1
  [ $? = 2 ] || fail "--generate over an existing file did not exit 2"
  unchanged "$work/existing.pmclog" "$fixtures/L3-64-le.pmclog"
  # ... also through a symlink planted at the path.
  ln -s "$work/existing.pmclog" "$work/link.pmclog"
  "$bench" --generate "$work/link.pmclog" --size-mib 1 --runs 1 >/dev/null 2>&1
  [ $? = 2 ] || fail "--generate through a symlink did not exit 2"
  unchanged "$work/existing.pmclog" "$fixtures/L3-64-le.pmclog"
  # --generate to a new path writes the log there and keeps it.
  TMPDIR="$work/tmp" "$bench" --generate "$work/new.pmclog" --size-mib 1 --runs 1 >/dev/null 2>&1 ||
    fail "--generate to a new path failed"
  [ -s "$work/new.pmclog" ] || fail "--generate left no log"
  # Neither option: a temporary log of its own, removed at the end.
  TMPDIR="$work/tmp" "$bench" --size-mib 1 --runs 1 >/dev/null 2>&1 || fail "default run failed"
  empty "$work/tmp"
  "$bench" --file "$work/in.pmclog" --generate "$work/other.pmclog" >/dev/null 2>&1
  [ $? = 2 ] || fail "--file with --generate was accepted"
  [ ! -e "$work/other.pmclog" ] || fail "--file with --generate created a file"
  ;;
validate)
  # FILE is only read; the generated logs never take over an existing name. exec keeps the
  # shell's pid, the one the old code put in its file names.
  precious "$fixtures/L3-64-le.pmclog" "$work/in.pmclog"
  "$bench" --runs 1 "$work/in.pmclog" >/dev/null 2>&1 || fail "FILE run failed"
  unchanged "$work/in.pmclog" "$fixtures/L3-64-le.pmclog"
  mkdir "$work/tmp"
  TMPDIR="$work/tmp" FIX="$fixtures" bash -c '
    cp "$FIX/L3-64-le.pmclog" "$TMPDIR/validate_bench_$$.pmclog"
    cp "$FIX/L3-64-le.pmclog" "$TMPDIR/validate_bench_$$_small.pmclog"
    touch -d @1000000000 "$TMPDIR"/*
    exec "$0" --size-mb 1 --runs 1' "$bench" >/dev/null 2>&1 || fail "generating run failed"
  for f in "$work"/tmp/*; do unchanged "$f" "$fixtures/L3-64-le.pmclog"; done
  [ "$(ls -A "$work/tmp" | wc -l)" = 2 ] || fail "validate_bench left files: $(ls -A "$work/tmp")"
  ;;
write)
  # The scratch folder is new; a folder of the old fixed name is not removed.
  TMPDIR="$work" bash -c '
    mkdir "$TMPDIR/bench-write.$$" && echo precious >"$TMPDIR/bench-write.$$/keep"
    exec "$0" "$TMPDIR" --runs 1 --size 200000' "$bench" >/dev/null 2>&1 || fail "bench-write failed"
  keep=$(ls "$work"/bench-write.*/keep 2>/dev/null | wc -l)
  [ "$keep" = 1 ] || fail "bench-write removed a folder it did not create"
  [ "$(ls -A "$work" | wc -l)" = 1 ] || fail "bench-write left files: $(ls -A "$work")"
  ;;
*)
  echo "usage: $0 decode|validate|write BENCH [FIXTURES_DIR]" >&2
  exit 2
  ;;
esac
[ $failures = 0 ] && echo "ok: $mode" || exit 1
