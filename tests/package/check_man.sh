#!/usr/bin/env bash
# The man pages: mandoc -T lint finds nothing at warning level or above, man -l renders
# each without a warning, and each tool's page names every long option of its --help (and
# documents no option the tool does not have).
#   check_man.sh MAN_DIR BIN_DIR
set -euo pipefail
mandir=$1 bindir=$2
here=$(cd "$(dirname "$0")" && pwd)
status=0
fail() { echo "FAIL: $*" >&2; status=1; }
pages=("$mandir"/*.1 "$mandir"/*.5)
((${#pages[@]} == 6)) || fail "expected 6 pages, found ${#pages[@]}"
for page in "${pages[@]}"; do
  name=$(basename "$page")
  # STYLE messages (line length, manuals not installed yet) are below the warning level.
  lint=$(mandoc -T lint -W warning "$page" 2>&1) || fail "$name: mandoc -T lint exit status"
  [[ -z $lint ]] || fail "$name: mandoc -T lint: $lint"
  err=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) || fail "$name: man -l failed"
  [[ -z $err ]] || fail "$name: man -l: $err"
  text=$(MANWIDTH=80 man -l "$page" 2>/dev/null | col -b)
  [[ $text == *NAME*DESCRIPTION* ]] || fail "$name: no NAME and DESCRIPTION"
done
for tool in pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report; do
  page=$mandir/$tool.1
  text=$(mandoc -T ascii "$page" | col -b)
  help=$("$here/help_options.sh" "$bindir/$tool" | cut -d' ' -f1)
  [[ -n $help ]] || fail "$tool: no options read from --help"
  for opt in $help; do
    grep -qE -- "(^|[^a-z-])$opt([^a-z-]|$)" <<<"$text" || fail "$tool.1 does not document $opt"
  done
  # Options the page describes (.It lines) must be the tool's.
  for opt in $(grep -E '^\.It .*Fl -' "$page" | grep -oE 'Fl -[a-z0-9-]+' | sed 's/^Fl -/--/' | sort -u); do
    grep -qx -- "$opt" <<<"$help" || fail "$tool.1 documents $opt, which --help does not list"
  done
done
((status == 0)) && echo "6 pages clean; every --help option documented"
exit $status
