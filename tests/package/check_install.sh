#!/usr/bin/env bash
# Installs the build into a scratch prefix, checks what went where, then builds a project
# outside the tree against it both ways (CMake's find_package and pkg-config), against the
# shared libraries and the static archives, and runs each program on fixtures.
#   check_install.sh BUILD CONSUMER WORK CXX LOG PROFILE_LOG [FLAGS]
# FLAGS: compiler flags for the consumer (a sanitized library needs a sanitized consumer).
set -euo pipefail
build=$1 consumer=$2 work=$3 cxx=$4 log=$5 profile_log=$6 flags=${7:-}
rm -rf "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
fail() { echo "FAIL: $*" >&2; exit 1; }

libdir=$(cd "$prefix" && ls -d lib*/ | head -1)
libdir=$prefix/${libdir%/}
for t in pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report; do
  [[ -x $prefix/bin/$t ]] || fail "bin/$t not installed"
  [[ -f $prefix/share/man/man1/$t.1.gz ]] || fail "man page of $t not installed"
  [[ -r $prefix/share/bash-completion/completions/$t ]] || fail "completion of $t not installed"
done
# Man pages compressed, as in the Debian package, and each package's licence and changelogs.
[[ -f $prefix/share/man/man5/pmclog.5.gz ]] || fail "pmclog(5) not installed"
for f in share/doc/pmclog/copyright share/doc/pmclog/changelog.gz share/doc/pmclog-dev/copyright; do
  [[ -f $prefix/$f ]] || fail "$f not installed"
done
for f in include/pmclog/pmclog.h include/pmcprofile/pmcprofile.h; do
  [[ -f $prefix/$f ]] || fail "$f not installed"
done
# The shared objects carry the ABI version in their SONAME; the link-time name points there.
version=$(sed -n 's/^Version: //p' "$libdir/pkgconfig/pmclog.pc")
abi=${version%.*}
for l in pmclog pmcprofile; do
  [[ -f $libdir/lib$l.a ]] || fail "lib$l.a not installed"
  [[ -f $libdir/lib$l.so.$version ]] || fail "lib$l.so.$version not installed"
  soname=$(readelf -d "$libdir/lib$l.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [[ $soname == lib$l.so.$abi ]] || fail "lib$l SONAME is '$soname', not lib$l.so.$abi"
  [[ $(readlink "$libdir/lib$l.so") == lib$l.so.$abi ]] || fail "lib$l.so does not link to the SONAME"
done

needs() {  # PROGRAM LIB: the program's dynamic section needs LIB
  readelf -d "$1" | grep -q "(NEEDED).*\[$2\]"
}
check_programs() {  # DIR: consumer-{shared,static} and profile-{shared,static} built there
  local d=$1 out
  export LD_LIBRARY_PATH=$libdir
  for kind in shared static; do
    out=$("$d/consumer-$kind" "$log") || fail "$d/consumer-$kind failed"
    # The seed golden log holds 31 records (fixtures/golden/seed-lp64-le.expected.txt).
    [[ $out == "31 records, L3, 64-bit addresses, little-endian" ]] || fail "consumer-$kind: $out"
    out=$("$d/profile-$kind" "$profile_log") || fail "$d/profile-$kind failed"
    [[ $out == "$profile_samples samples, "* ]] || fail "profile-$kind: $out (want $profile_samples samples)"
  done
  needs "$d/consumer-shared" "libpmclog.so.$abi" || fail "consumer-shared does not use libpmclog.so"
  needs "$d/profile-shared" "libpmcprofile.so.$abi" || fail "profile-shared does not use libpmcprofile.so"
  ! needs "$d/consumer-static" "libpmclog.so.$abi" || fail "consumer-static uses libpmclog.so"
  ! needs "$d/profile-static" "libpmcprofile.so.$abi" || fail "profile-static uses libpmcprofile.so"
  unset LD_LIBRARY_PATH
  echo "$d: shared and static programs ran"
}
# The samples of the profile fixture, as the installed pmclog-dump counts them.
profile_samples=$("$prefix/bin/pmclog-dump" --stats --format=json "$profile_log" |
  sed -n 's/.*"samples":{"total":\([0-9]*\).*/\1/p')
[[ -n $profile_samples ]] || fail "no sample count from pmclog-dump --stats"

# 1. CMake: find_package(pmclog CONFIG) from the prefix.
cmake -S "$consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build "$work/cmake" -j2 >/dev/null
check_programs "$work/cmake"

# 2. pkg-config: the flags it gives, nothing else. Both a .so and a .a are installed, so
# the static programs name the archives (-l:libX.a) in place of -lX, with --static's
# private dependencies.
export PKG_CONFIG_PATH=$libdir/pkgconfig
mkdir -p "$work/pc"
# shellcheck disable=SC2046,SC2086
{
  "$cxx" $flags -c -o "$work/pc/main.o" "$consumer/main.cpp" $(pkg-config --cflags pmclog)
  "$cxx" $flags -c -o "$work/pc/profile_main.o" "$consumer/profile_main.cpp" \
    $(pkg-config --cflags pmcprofile)
  "$cxx" $flags -o "$work/pc/consumer-shared" "$work/pc/main.o" $(pkg-config --libs pmclog)
  "$cxx" $flags -o "$work/pc/profile-shared" "$work/pc/profile_main.o" \
    $(pkg-config --libs pmcprofile)
  "$cxx" $flags -o "$work/pc/consumer-static" "$work/pc/main.o" \
    $(pkg-config --static --libs pmclog | sed 's/-lpmclog\b/-l:libpmclog.a/')
  "$cxx" $flags -o "$work/pc/profile-static" "$work/pc/profile_main.o" \
    $(pkg-config --static --libs pmcprofile |
      sed 's/-lpmcprofile\b/-l:libpmcprofile.a/; s/-lpmclog\b/-l:libpmclog.a/')
}
check_programs "$work/pc"
rm -rf "$work"
