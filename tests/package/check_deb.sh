#!/usr/bin/env bash
# cpack -G DEB: builds pmclog and pmclog-dev, then checks them.
#  - Depends of pmclog (dpkg-shlibdeps) names the package of every shared library its tools
#    and libraries need (each NEEDED entry is looked up with dpkg -S), and pmclog-dev depends
#    on the same version of pmclog.
#  - What goes where: tools, shared objects, man pages and completion in pmclog; headers,
#    archives, the CMake and pkg-config files in pmclog-dev.
#  - Installed: with PMCLOG_TEST_DEB_INSTALL=1 and root (CI on a fresh Debian 12), dpkg -i
#    both, every tool runs --version from /usr/bin and `man pmclog-dump` finds the page, then
#    dpkg -P (remove and purge). Otherwise the packages are extracted with dpkg-deb -x into a scratch root and
#    the same is run from there (LD_LIBRARY_PATH, man -M): a check of the files, not of
#    dpkg's installation.
#   check_deb.sh BUILD WORK
set -euo pipefail
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
tools=(pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report)

(cd "$build" && cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log" >&2; fail "cpack -G DEB"; }
deb=$(ls "$work"/out/pmclog_*.deb) dev=$(ls "$work"/out/pmclog-dev_*.deb)
version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
echo "pmclog $version Depends: $depends"
[[ -n $depends ]] || fail "pmclog has no Depends"
[[ $(dpkg-deb -f "$dev" Depends) == *"pmclog (= $version)"* ]] || fail "pmclog-dev does not depend on pmclog (= $version)"

root=$work/root
dpkg-deb -x "$deb" "$root"
dpkg-deb -x "$dev" "$root/dev"
listing=$(dpkg-deb -c "$deb") devlisting=$(dpkg-deb -c "$dev")
for t in "${tools[@]}"; do
  [[ $listing == *"./usr/bin/$t"* ]] || fail "pmclog lacks /usr/bin/$t"
  [[ $listing == *"./usr/share/man/man1/$t.1"* ]] || fail "pmclog lacks the man page of $t"
  [[ $listing == *"./usr/share/bash-completion/completions/$t"* ]] || fail "pmclog lacks the completion of $t"
done
[[ $listing == *"/libpmclog.so."* && $listing == *"/libpmcprofile.so."* ]] || fail "pmclog lacks the shared objects"
! awk '{print $NF}' <<<"$listing" | grep -qE '^\./usr/include|\.a$|\.pc$|\.cmake$' ||
  fail "pmclog holds development files"
for f in include/pmclog/pmclog.h include/pmcprofile/pmcprofile.h libpmclog.a libpmcprofile.a \
  cmake/pmclog/pmclogConfig.cmake pkgconfig/pmclog.pc pkgconfig/pmcprofile.pc; do
  [[ $devlisting == *"$f"* ]] || fail "pmclog-dev lacks $f"
done
[[ $devlisting != *"./usr/bin/"?* ]] || fail "pmclog-dev holds programs"

# Every shared library an ELF file of the package needs is in the package itself or in a
# package that Depends names: each NEEDED entry's file as ldd resolves it, looked up with
# dpkg -S once per distinct library (with merged /usr, dpkg may know it under /lib or
# /usr/lib).
own=$(find "$root/usr" -name '*.so.*' -printf '%f\n')
ownlib=$(dirname "$(find "$root/usr" -name 'libpmclog.so.*' | head -1)")
while IFS= read -r elf; do
  needed=$(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  LD_LIBRARY_PATH=$ownlib ldd "$elf" | awk '$2 == "=>" {print $1, $3}' |
    while read -r lib path; do
      grep -qx "$lib" <<<"$needed" || continue  # ldd lists indirect needs too
      grep -qx "$lib" <<<"$own" && continue
      [[ $path == /* ]] || fail "$(basename "$elf") needs $lib, which is not found"
      echo "$lib $path"
    done
done < <(find "$root/usr" -type f \( -path '*/bin/*' -o -name '*.so.*' \)) | sort -u >"$work/needed"
while read -r lib path; do
  pkg=$( (dpkg -S "$path" || dpkg -S "${path#/usr}" || dpkg -S "/usr$path") 2>/dev/null |
    head -1 | cut -d: -f1)
  [[ -n $pkg ]] || fail "$path ($lib) belongs to no installed package"
  [[ ", $depends," == *", $pkg "* || ", $depends," == *", $pkg,"* ]] ||
    fail "$lib comes from $pkg, which Depends does not name"
done <"$work/needed"
[[ -s $work/needed ]] || fail "no shared library needs found (readelf or ldd failed?)"

installed=0
if [[ ${PMCLOG_TEST_DEB_INSTALL:-0} == 1 ]]; then
  [[ $(id -u) == 0 ]] || fail "PMCLOG_TEST_DEB_INSTALL=1 needs root"
  if dpkg -s pmclog >/dev/null 2>&1; then fail "pmclog is installed already; not touching it"; fi
  if grep -qs 'path-exclude=*/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
    fail "dpkg here leaves out man pages (/etc/dpkg/dpkg.cfg.d), so man cannot find them"
  fi
  trap 'dpkg -P pmclog-dev pmclog >/dev/null 2>&1 || true' EXIT
  dpkg -i "$deb" "$dev" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg -i"; }
  installed=1
  bin=/usr/bin manpath=""
else
  bin=$root/usr/bin manpath=$root/usr/share/man
  export LD_LIBRARY_PATH
  LD_LIBRARY_PATH=$(dirname "$(find "$root/usr" -name 'libpmclog.so.*' | head -1)")
fi
for t in "${tools[@]}"; do
  out=$("$bin/$t" --version) || fail "$t --version"
  [[ $out == "$t $version"$'\n'* ]] || fail "$t --version: $out"
done
if ((installed)); then
  page=$(man -w pmclog-dump) || fail "man does not find pmclog-dump"
  [[ $page == /usr/share/man/man1/pmclog-dump.1* ]] || fail "man finds $page"
  man pmclog-dump 2>/dev/null | grep -q -- '--format' || fail "man pmclog-dump shows no --format"
  man 5 pmclog >/dev/null 2>&1 || fail "man 5 pmclog"
  dpkg -P pmclog-dev pmclog >/dev/null
  trap - EXIT
  ! dpkg -s pmclog >/dev/null 2>&1 || fail "pmclog still installed after dpkg -P"
  [[ ! -e /usr/bin/pmclog-dump ]] || fail "/usr/bin/pmclog-dump left behind"
  echo "installed with dpkg -i, ran, found the man page, purged"
else
  page=$(man -M "$manpath" -w pmclog-dump) || fail "man -M does not find pmclog-dump"
  man -M "$manpath" pmclog-dump 2>/dev/null | grep -q -- '--format' || fail "no --format in the page"
  echo "extracted with dpkg-deb -x (not installed): tools ran, man -M found the page"
fi
rm -rf "$work"
