#!/usr/bin/env bash
# README.md's option table is what scripts/option_table.sh makes of the tools' --help: a
# tool that gains, loses or rewords an option fails here until the table is regenerated.
#   readme_options.sh SOURCE_DIR BIN_DIR
set -euo pipefail
src=$1 bin=$2
readme=$src/README.md
grep -q '^<!-- options:begin -->$' "$readme" && grep -q '^<!-- options:end -->$' "$readme" || {
  echo "README.md has no <!-- options:begin --> / <!-- options:end --> markers" >&2
  exit 1
}
have=$(awk '/^<!-- options:end -->$/ { on = 0 } on { print } /^<!-- options:begin -->$/ { on = 1 }' "$readme")
want=$(bash "$src/scripts/option_table.sh" "$bin")
if [[ "$have" != "$want" ]]; then
  echo "README.md's option table differs from the tools' --help (- README, + tools):" >&2
  diff -u <(printf '%s\n' "$have") <(printf '%s\n' "$want") | tail -n +3 >&2 || true
  echo "regenerate it: bash scripts/option_table.sh $bin --update" >&2
  exit 1
fi
echo "README.md's option table matches the tools' --help"
