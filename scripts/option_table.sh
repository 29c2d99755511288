#!/usr/bin/env bash
# Prints docs/options.md's option table (what goes between <!-- options:begin --> and
# <!-- options:end -->) from the tools' own --help, so that the table cannot drift from them:
# which tool takes which long option, then each tool's options with their one-line meaning.
#   bash scripts/option_table.sh BIN_DIR            # print the section
#   bash scripts/option_table.sh BIN_DIR --update   # rewrite docs/options.md's section in place
# tests/package/readme_options.sh fails when docs/options.md differs from this output.
set -euo pipefail
bin=${1:?usage: option_table.sh BIN_DIR [--update]}
tools=(pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report)

# Each tool's --help after a line "@@ TOOL" (pmclog-write's lists the options of every mode).
helps() {
  local t
  for t in "${tools[@]}"; do
    [[ -x $bin/$t ]] || { echo "option_table.sh: $bin/$t: not built" >&2; exit 2; }
    echo "@@ $t"
    "$bin/$t" --help
  done
}

# Option lines start with two spaces and a dash; the option column ends at the first run of
# two spaces; the meaning goes on in the deeper-indented lines below it (boost's wrapping).
section() {
  helps | LC_ALL=C awk '
    function cell(s) { gsub(/\|/, "\\|", s); return s }
    function flush() {
      if (name == "") return
      gsub(/  +/, " ", meaning); sub(/^ /, "", meaning); sub(/ $/, "", meaning)
      opt = "`" name "`"
      if (short != "") opt = "`" short "`, " opt
      if (value != "") opt = opt " `" cell(value) "`"
      rows[tool] = rows[tool] "| " opt " | " cell(meaning) " |\n"
      if (!(name in seen)) { seen[name] = 1; names[++n] = name }
      takes[name, tool] = 1
      name = ""
    }
    /^@@ / { flush(); tool = $2; tools[++nt] = tool; next }
    /^  -/ {
      flush()
      col = substr($0, 3); meaning = ""
      i = index(col, "  ")
      if (i > 0) { meaning = substr(col, i); col = substr(col, 1, i - 1) }
      if (match(col, /--[a-z0-9][a-z0-9-]*/) == 0) next
      name = substr(col, RSTART, RLENGTH)
      value = substr(col, RSTART + RLENGTH)
      sub(/^ *\]/, "", value); gsub(/^ +| +$/, "", value)
      short = ""
      if (match(col, /^-[A-Za-z0-9]( |$)/)) short = substr(col, 1, 2)
      next
    }
    name != "" && /^      +[^ ]/ { meaning = meaning " " $0; next }
    { flush() }
    END {
      flush()
      print "Generated from each tool'"'"'s `--help` by `scripts/option_table.sh BIN_DIR`; every option"
      print "here is also run by tests/common/cli_table_test.cpp."
      print ""
      head = "| Option |"; rule = "|---|"
      for (t = 1; t <= nt; t++) { short_name = tools[t]; sub(/^pmclog-/, "", short_name)
        head = head " " short_name " |"; rule = rule ":-:|" }
      print head; print rule
      # Options in name order (insertion sort: a few dozen names).
      for (i = 2; i <= n; i++) { x = names[i]; for (j = i - 1; j >= 1 && names[j] > x; j--) names[j + 1] = names[j]; names[j + 1] = x }
      for (i = 1; i <= n; i++) {
        line = "| `" names[i] "` |"
        for (t = 1; t <= nt; t++) line = line (((names[i], tools[t]) in takes) ? " ✓ |" : " |")
        print line
      }
      for (t = 1; t <= nt; t++) {
        print ""
        print "<details><summary><code>" tools[t] "</code> options</summary>"
        print ""
        print "| Option | Meaning |"
        print "|---|---|"
        printf "%s", rows[tools[t]]
        print ""
        print "</details>"
      }
    }'
}

if [[ ${2:-} == --update ]]; then
  doc=$(dirname "$0")/../docs/options.md
  sec=$(mktemp) new=$(mktemp)
  trap 'rm -f "$sec" "$new"' EXIT
  section > "$sec"
  awk -v sec="$sec" '
    /^<!-- options:end -->$/ { while ((getline l < sec) > 0) print l; skip = 0 }
    !skip { print }
    /^<!-- options:begin -->$/ { skip = 1 }' "$doc" > "$new"
  grep -q '^<!-- options:begin -->$' "$new" || { echo "option_table.sh: no markers in $doc" >&2; exit 2; }
  cat "$new" > "$doc"
else
  section
fi
