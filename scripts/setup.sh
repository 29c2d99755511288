#!/usr/bin/env bash
# Installs the Debian 12 packages the build, the tests and the benchmarks need.
# Idempotent; run as root (CI runs as root). Skips apt-get when everything is present.
set -euo pipefail
packages=(
  build-essential cmake pkg-config g++-12 clang-14 libclang-rt-14-dev lld-14
  libboost-dev libboost-program-options-dev
  libgtest-dev libgmock-dev
  libfmt-dev zlib1g-dev libzstd-dev liblzma-dev libbz2-dev nlohmann-json3-dev libsimdjson-dev
  python3 jq gzip zstd xz-utils bzip2 valgrind
  libdw-dev libelf-dev elfutils binutils
  protobuf-compiler libprotobuf-dev
  golang-go golang-github-google-pprof-dev
  chromium fonts-dejavu-core
  mandoc man-db bash-completion dpkg-dev lintian
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing packages: ${missing[*]}; run as root (sudo $0)" >&2
    exit 2
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "setup: all build packages present"
