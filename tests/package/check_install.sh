#!/usr/bin/env bash
# Installs the build into a scratch prefix, builds the consumer project against it, runs it.
# FLAGS: compiler flags for the consumer (a sanitized library needs a sanitized consumer).
set -euo pipefail
build=$1 consumer=$2 work=$3 cxx=$4 log=$5 flags=${6:-}
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build "$work/build" >/dev/null
out=$("$work/build/consumer" "$log")
echo "$out"
# The seed golden log holds 31 records (fixtures/golden/seed-lp64-le.expected.txt).
[[ "$out" == "31 records, L3, 64-bit addresses, little-endian" ]]
