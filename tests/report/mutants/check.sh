#!/bin/sh
# Applies each mutant (a small plausible bug in the profile engine or the report tool, one
# *.patch here) to the work tree, builds the report tests, runs them and expects at least one
# to fail; then reverts the mutant. A tool for developers (not run by CI): a mutant that
# survives means the tests no longer catch that wrong answer.
#
#   tests/report/mutants/check.sh [BUILD_DIR [MUTANT.patch ...]]
#
# BUILD_DIR (default: build) is a configured build of this tree. GTEST_FILTER narrows the
# tests run (default: all of pmclog-report-tests, some of which record with perf).
# Each mutant's build and test output stays in BUILD_DIR/mutants/NAME.log.
# Exit status: 0 when every mutant was caught, 1 when one survived or did not apply.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel) || exit 2
build=${1:-build}
[ $# -gt 0 ] && shift
case $build in /*) ;; *) build=$top/$build ;; esac
[ -f "$build/CMakeCache.txt" ] || { echo "check.sh: $build is not a configured build" >&2; exit 2; }
[ $# -gt 0 ] || set -- "$here"/*.patch
cd "$top" || exit 2

tests="$build/bin/pmclog-report-tests"
# Without GTEST_FILTER: the build lists the tests for ctest (gtest_discover_tests), and a
# filter there would leave ctest running only the filtered ones afterwards.
build_tests() { env -u GTEST_FILTER cmake --build "$build" -j2 --target pmclog-report-tests; }
mkdir -p "$build/mutants"
failed=0
for patch in "$@"; do
  name=$(basename "$patch" .patch)
  # The mutant's files must be as committed: reverting it must give them back untouched.
  files=$(git apply --numstat "$patch" | cut -f3)
  if [ -n "$(git status --porcelain -- $files)" ]; then
    echo "$name: $files has uncommitted changes; not applied" >&2
    failed=1
    continue
  fi
  if ! git apply "$patch"; then
    echo "$name: DOES NOT APPLY (the code moved: update the patch)"
    failed=1
    continue
  fi
  log=$build/mutants/$name.log
  if ! build_tests >"$log" 2>&1; then
    echo "$name: BUILD FAILED (see $log)"
    failed=1
  elif "$tests" --gtest_brief=1 >"$log" 2>&1; then
    echo "$name: SURVIVED: every report test passed with it"
    failed=1
  else
    caught=$(grep '^\[  FAILED  \] [A-Za-z]' "$log" | sed 's/^\[  FAILED  \] //; s/ (.*//' | sort -u)
    echo "$name: caught by" $caught
  fi
  git apply -R "$patch" || { echo "$name: could not revert: git checkout -- $files" >&2; exit 2; }
done
# The build holds the last mutant: rebuild what the tree says.
build_tests >/dev/null 2>&1
exit $failed
