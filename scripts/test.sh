#!/usr/bin/env bash
# Sets up a Debian 12 machine, then builds and runs every test twice: with g++-12, and with
# clang++-14 under AddressSanitizer and UBSan (library, tools, fuzz corpus); warnings are
# errors in both. This is what CI runs (.ci/run). An unsanitized clang build is left out: the
# sanitized one compiles the same code with clang's warnings, and the CI run must stay under
# 30 minutes on two cores; on a slow 2-core host it takes about 27, most of it the two builds
# (PMCLOG_TEST_PLAIN_CLANG=1 adds the third).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

run() {  # name, then cmake options
  local dir=build-test-$1
  shift
  echo "=== $dir: configure ($(date -u +%H:%M:%S))"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPMCLOG_WERROR=ON "$@" >/dev/null
  echo "=== $dir: build"
  cmake --build "$dir" -j"$jobs"
  echo "=== $dir: test ($(date -u +%H:%M:%S))"
  ctest --test-dir "$dir" --output-on-failure -j"$jobs"
}

# CI is a fresh Debian 12 run as root: the Debian package test installs its packages with
# dpkg -i (and removes them) instead of only extracting them (tests/package/check_deb.sh).
PMCLOG_TEST_DEB_INSTALL=1 run gcc -DCMAKE_CXX_COMPILER=g++-12
if [ "${PMCLOG_TEST_PLAIN_CLANG:-0}" = 1 ]; then
  run clang -DCMAKE_CXX_COMPILER=clang++-14
fi
run asan -DCMAKE_CXX_COMPILER=clang++-14 -DPMCLOG_SANITIZE=ON -DPMCLOG_BUILD_BENCH=OFF
echo "=== all test runs passed ($(date -u +%H:%M:%S))"
