#!/usr/bin/env bash
# The long options TOOL --help lists, one a line, as "NAME arg" (takes a value) or
# "NAME flag". Option lines start with two spaces and a dash; the option column ends at the
# first run of two spaces ("  -f [ --format ] arg      text ...", "  --explain   same as").
set -euo pipefail
"$1" --help | awk '
  /^  -/ {
    col = substr($0, 3)
    i = index(col, "  ")
    if (i > 0) col = substr(col, 1, i - 1)
    if (match(col, /--[a-z0-9][a-z0-9-]*/) == 0) next
    name = substr(col, RSTART, RLENGTH)
    rest = substr(col, RSTART + RLENGTH)
    sub(/^ *\]/, "", rest)
    gsub(/ /, "", rest)
    print name, (rest == "" ? "flag" : "arg")
  }'
