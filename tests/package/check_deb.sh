#!/usr/bin/env bash
# cpack -G DEB: builds pmclog and pmclog-dev, then checks them.
#  - Depends of pmclog (dpkg-shlibdeps) names the package of every shared library its tools
#    and libraries need (each NEEDED entry is looked up with dpkg -S), and pmclog-dev depends
#    on the same version of pmclog.
#  - What goes where: tools, shared objects, man pages and completion in pmclog; headers,
#    archives, the CMake and pkg-config files in pmclog-dev.
#  - Each package's /usr/share/doc: copyright in Debian's machine-readable format, with
#    LICENSE's text; changelog.gz, the project's CHANGELOG.md; changelog.Debian.gz, a Debian
#    changelog of this version. Man pages and changelogs compressed with gzip -9n (no name or
#    time in the header).
#  - lintian (Debian 12's) reports no error and no warning on either package, beyond the
#    overrides each installs with a reason. Without lintian the test fails under
#    PMCLOG_TEST_DEB_INSTALL=1 (CI, which installs it) and otherwise skips (77) after the
#    other checks.
#  - Installed: with PMCLOG_TEST_DEB_INSTALL=1 and root (CI on a fresh Debian 12), dpkg -i
#    both, every tool runs --version from /usr/bin, `man pmclog-dump` finds the page and
#    ldconfig's cache holds the libraries (dpkg's trigger ran ldconfig), then dpkg -P (remove
#    and purge). Otherwise the packages are extracted with dpkg-deb -x into a scratch root
#    and the same is run from there (LD_LIBRARY_PATH, man -M): a check of the files, not of
#    dpkg's installation.
#   check_deb.sh BUILD WORK SOURCE
set -euo pipefail
build=$1 work=$2 source=$3
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
  [[ $listing == *"./usr/share/man/man1/$t.1.gz"* ]] || fail "pmclog lacks the man page of $t"
  [[ $listing == *"./usr/share/bash-completion/completions/$t"* ]] || fail "pmclog lacks the completion of $t"
done
[[ $listing == *"./usr/share/man/man5/pmclog.5.gz"* ]] || fail "pmclog lacks pmclog(5)"
! awk '{print $NF}' <<<"$listing" | grep -E '^\./usr/share/man/.*[^z]$' | grep -v '/$' ||
  fail "pmclog holds uncompressed man pages"
[[ $listing == *"/libpmclog.so."* && $listing == *"/libpmcprofile.so."* ]] || fail "pmclog lacks the shared objects"
# grep -q reads its input from a string, never from a pipe: with pipefail, a writer that
# grep -q leaves behind dies of SIGPIPE (141) and turns a match into a failure.
names=$(awk '{print $NF}' <<<"$listing")
! grep -qE '^\./usr/include|\.a$|\.pc$|\.cmake$' <<<"$names" || fail "pmclog holds development files"
for f in include/pmclog/pmclog.h include/pmcprofile/pmcprofile.h libpmclog.a libpmcprofile.a \
  cmake/pmclog/pmclogConfig.cmake pkgconfig/pmclog.pc pkgconfig/pmcprofile.pc; do
  [[ $devlisting == *"$f"* ]] || fail "pmclog-dev lacks $f"
done
[[ $devlisting != *"./usr/bin/"?* ]] || fail "pmclog-dev holds programs"

# /usr/share/doc of each package.
gzip_n() {  # FILE: gzip, maximum compression (XFL 2), no name (FLG 0) and no time (MTIME 0)
  local header
  header=$(od -An -tx1 -N10 "$1" | tr -d ' \n')
  [[ $header == 1f8b0800000000000203 ]] || fail "$1 is not gzip -9n: header $header"
}
for pkg in pmclog pmclog-dev; do
  if [[ $pkg == pmclog ]]; then doc=$root/usr/share/doc/pmclog l=$listing; else doc=$root/dev/usr/share/doc/pmclog-dev l=$devlisting; fi
  for f in copyright changelog.gz changelog.Debian.gz; do
    [[ $l == *"./usr/share/doc/$pkg/$f"$'\n'* || $l == *"./usr/share/doc/$pkg/$f" ]] ||
      fail "$pkg lacks /usr/share/doc/$pkg/$f"
  done
  c=$doc/copyright
  [[ $(head -1 "$c") == "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ]] ||
    fail "$pkg: copyright is not in the machine-readable format: $(head -1 "$c")"
  for line in 'Upstream-Name: pmclog' 'Files: *' 'License: BSD-2-Clause'; do
    grep -qxF "$line" "$c" || fail "$pkg: copyright lacks '$line'"
  done
  holder=$(sed -n 's/^Copyright (c) //p' "$source/LICENSE")
  grep -qxF "Copyright: $holder" "$c" || fail "$pkg: copyright does not name '$holder'"
  # The licence text, indented by one space, an empty line as " .".
  diff <(sed -n '/^Redistribution/,$p' "$source/LICENSE" | sed 's/^$/./; s/^/ /') \
    <(sed -n '/^ Redistribution/,$p' "$c") >&2 || fail "$pkg: copyright's licence text is not LICENSE's"
  for f in changelog.gz changelog.Debian.gz; do gzip_n "$doc/$f"; done
  cmp -s <(gzip -dc "$doc/changelog.gz") "$source/CHANGELOG.md" || fail "$pkg: changelog.gz is not CHANGELOG.md"
  gzip -dc "$doc/changelog.Debian.gz" >"$work/changelog.Debian"
  [[ $(dpkg-parsechangelog -l "$work/changelog.Debian" -S Source) == pmclog ]] || fail "$pkg: changelog.Debian names another source"
  [[ $(dpkg-parsechangelog -l "$work/changelog.Debian" -S Version) == "$version" ]] ||
    fail "$pkg: changelog.Debian is not of $version"
done
for page in "$root"/usr/share/man/man*/*; do gzip_n "$page"; done

# lintian, Debian's own package checker.
lintian_missing=0
if lintian --version >/dev/null 2>&1; then  # installed and runs
  # One run that prints everything, overridden tags (O:, the packages' own
  # usr/share/lintian/overrides, each with its reason as N:) and infos (I:) too; an error
  # (E:) or a warning (W:) fails, as --fail-on error,warning would (which, with
  # --show-overrides, fails on the overridden ones as well).
  lintian --fail-on none --show-overrides --display-info "$deb" "$dev" >"$work/lintian.log" 2>&1 ||
    { cat "$work/lintian.log" >&2; fail "lintian did not run"; }
  cat "$work/lintian.log"
  ! grep -qE '^[EW]: ' "$work/lintian.log" || fail "lintian reports errors or warnings (E:, W: above)"
  echo "lintian: no errors or warnings"
elif [[ ${PMCLOG_TEST_DEB_INSTALL:-0} == 1 ]]; then
  fail "lintian is not installed (scripts/setup.sh installs it): the packages cannot be checked"
else
  lintian_missing=1
fi

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
  text=$(man pmclog-dump 2>/dev/null || true)
  grep -q -- '--format' <<<"$text" || fail "man pmclog-dump shows no --format"
  man 5 pmclog >/dev/null 2>&1 || fail "man 5 pmclog"
  # No maintainer script runs ldconfig: dpkg's ldconfig trigger must have.
  cache=$(ldconfig -p)
  grep -q 'libpmcprofile\.so\.' <<<"$cache" || fail "ldconfig's cache lacks libpmcprofile (the trigger did not run)"
  dpkg -P pmclog-dev pmclog >/dev/null
  trap - EXIT
  ! dpkg -s pmclog >/dev/null 2>&1 || fail "pmclog still installed after dpkg -P"
  [[ ! -e /usr/bin/pmclog-dump ]] || fail "/usr/bin/pmclog-dump left behind"
  echo "installed with dpkg -i, ran, found the man page, purged"
else
  page=$(man -M "$manpath" -w pmclog-dump) || fail "man -M does not find pmclog-dump"
  text=$(man -M "$manpath" pmclog-dump 2>/dev/null || true)
  grep -q -- '--format' <<<"$text" || fail "no --format in the page"
  echo "extracted with dpkg-deb -x (not installed): tools ran, man -M found the page"
fi
rm -rf "$work"
if ((lintian_missing)); then
  echo "SKIP: lintian is not installed (apt-get install lintian); the other checks passed"
  exit 77
fi
