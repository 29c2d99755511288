#!/usr/bin/env bash
# docs/options.md's option table is what scripts/option_table.sh makes of the tools' --help:
# a tool that gains, loses or rewords an option fails here until the table is regenerated.
# (The table used to live in README.md, hence this script's and the test's name.)
#   readme_options.sh SOURCE_DIR BIN_DIR
set -euo pipefail
src=$1 bin=$2
doc=$src/docs/options.md
grep -q '^<!-- options:begin -->$' "$doc" && grep -q '^<!-- options:end -->$' "$doc" || {
  echo "docs/options.md has no <!-- options:begin --> / <!-- options:end --> markers" >&2
  exit 1
}
have=$(awk '/^<!-- options:end -->$/ { on = 0 } on { print } /^<!-- options:begin -->$/ { on = 1 }' "$doc")
want=$(bash "$src/scripts/option_table.sh" "$bin")
if [[ "$have" != "$want" ]]; then
  echo "docs/options.md's option table differs from the tools' --help (- docs, + tools):" >&2
  diff -u <(printf '%s\n' "$have") <(printf '%s\n' "$want") | tail -n +3 >&2 || true
  echo "regenerate it: bash scripts/option_table.sh $bin --update" >&2
  exit 1
fi
echo "docs/options.md's option table matches the tools' --help"
