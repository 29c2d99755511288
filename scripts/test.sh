#!/usr/bin/env bash
# Sets up a Debian 12 machine, then builds and runs every test: with g++-12 and clang++-14
# (warnings are errors), and every test again (library, tools, fuzz corpus) under
# AddressSanitizer and UBSan. This is what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

run() {  # name, then cmake options
  local dir=build-test-$1
  shift
  echo "=== $dir: configure"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPMCLOG_WERROR=ON "$@" >/dev/null
  echo "=== $dir: build"
  cmake --build "$dir" -j"$jobs"
  echo "=== $dir: test"
  ctest --test-dir "$dir" --output-on-failure -j"$jobs"
}

run gcc -DCMAKE_CXX_COMPILER=g++-12
run clang -DCMAKE_CXX_COMPILER=clang++-14
run asan -DCMAKE_CXX_COMPILER=clang++-14 -DPMCLOG_SANITIZE=ON -DPMCLOG_BUILD_BENCH=OFF
echo "=== all test runs passed"
