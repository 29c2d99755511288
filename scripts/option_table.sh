#!/usr/bin/env bash
# Prints README.md's "Options" section (what goes between <!-- options:begin --> and
# <!-- options:end -->) from the tools' own --help, so that the table cannot drift from them:
# which tool takes which long option, then each tool's options with their one-line meaning.
#   bash scripts/option_table.sh BIN_DIR            # print the section
#   bash scripts/option_table.sh BIN_DIR --update   # rewrite README.md's section in place
# tests/package/readme_options.sh fails when README.md differs from this output.
set -euo pipefail
bin=${1:?usage: option_table.sh BIN_DIR [--update]}
tools=(pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report)

# One row per option line of a --help text: LONG, SHORT, VALUE, MEANING, separated by \037
# (read's IFS would merge the empty fields of a whitespace separator such as a tab).
# Option lines start with two spaces and a dash; the option column ends at the first run of
# two spaces; the meaning goes on in the deeper-indented lines below it (boost's wrapping).
rows() {
  LC_ALL=C awk '
    function flush() {
      if (name != "") {
        gsub(/  +/, " ", meaning); sub(/^ /, "", meaning); sub(/ $/, "", meaning)
        printf "%s\037%s\037%s\037%s\n", name, short, value, meaning
      }
      name = ""
    }
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
    END { flush() }'
}

# pmclog-write has modes: its --help lists the options of every mode.
help_of() { "$bin/$1" --help; }

# Markdown cells: a literal | would end the cell.
cell() { printf '%s' "$1" | sed 's/|/\\|/g'; }

declare -A takes=() seen=()
order=()
for t in "${tools[@]}"; do
  [[ -x $bin/$t ]] || { echo "option_table.sh: $bin/$t: not built" >&2; exit 2; }
  while IFS=$'\037' read -r name _ _ _; do
    [[ -v "seen[$name]" ]] || { order+=("$name"); seen[$name]=1; }
    takes["$name $t"]=1
  done < <(help_of "$t" | rows)
done

section() {
  echo "Generated from each tool's \`--help\` by \`scripts/option_table.sh BIN_DIR\`; every option"
  echo "here is also run by tests/common/cli_table_test.cpp."
  echo
  local head="| Option |" rule="|---|"
  for t in "${tools[@]}"; do head+=" ${t#pmclog-} |"; rule+=":-:|"; done
  echo "$head"
  echo "$rule"
  local o t line
  for o in $(printf '%s\n' "${order[@]}" | LC_ALL=C sort); do
    line="| \`$o\` |"
    for t in "${tools[@]}"; do
      if [[ -v "takes[$o $t]" ]]; then line+=" ✓ |"; else line+=" |"; fi
    done
    echo "$line"
  done
  for t in "${tools[@]}"; do
    echo
    echo "<details><summary><code>$t</code> options</summary>"
    echo
    echo "| Option | Meaning |"
    echo "|---|---|"
    while IFS=$'\037' read -r name short value meaning; do
      local opt="\`$name\`"
      [[ -n $short ]] && opt="\`$short\`, $opt"
      [[ -n $value ]] && opt+=" \`$(cell "$value")\`"
      echo "| $opt | $(cell "$meaning") |"
    done < <(help_of "$t" | rows)
    echo
    echo "</details>"
  done
}

if [[ ${2:-} == --update ]]; then
  readme=$(dirname "$0")/../README.md
  new=$(mktemp)
  trap 'rm -f "$new"' EXIT
  section > "$new.section"
  awk -v sec="$new.section" '
    /^<!-- options:end -->$/ { while ((getline l < sec) > 0) print l; skip = 0 }
    !skip { print }
    /^<!-- options:begin -->$/ { skip = 1 }' "$readme" > "$new"
  rm -f "$new.section"
  grep -q '^<!-- options:begin -->$' "$new" || { echo "option_table.sh: no markers in $readme" >&2; exit 2; }
  cat "$new" > "$readme"
else
  section
fi
