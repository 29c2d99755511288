#!/usr/bin/env bash
# Drives the bash completion as bash does: sources the script, then sets COMP_WORDS and
# COMP_CWORD and calls the function `complete -p` names, and checks COMPREPLY. Also checks
# that the script's option lists are exactly each tool's --help options (and which take a
# value), and that each value list it offers is the one the option's help names.
#   completion_test.sh SCRIPT BIN_DIR [--with-bash-completion]
set -uo pipefail
script=$1 bindir=$2
here=$(cd "$(dirname "$0")" && pwd)
export PATH=$bindir:$PATH
status=0
fail() { echo "FAIL: $*" >&2; status=1; }
# With bash-completion loaded, the script uses its _filedir; without, compgen -f.
if [[ ${3:-} == --with-bash-completion && -r /usr/share/bash-completion/bash_completion ]]; then
  # shellcheck disable=SC1091
  source /usr/share/bash-completion/bash_completion
fi
# shellcheck disable=SC1090
source "$script"

tools=(pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report)
for t in "${tools[@]}"; do
  spec=$(complete -p "$t" 2>/dev/null) || { fail "no completion for $t"; continue; }
  [[ $spec == "complete -F _pmclog $t" ]] || fail "$t: $spec"
done

# Completes the words as typed (the last one is being completed); prints COMPREPLY sorted.
run() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  local fn
  fn=$(complete -p "$1" | sed 's/.*-F \([^ ]*\).*/\1/')
  "$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() {  # WANT WORDS...
  local want=$1 got
  shift
  got=$(run "$@")
  [[ $got == "$want" ]] || fail "'$*': got '$got', want '$want'"
}

# The lists against --help: same options, same split between value and flag.
for t in "${tools[@]}"; do
  name=${t//-/_}
  args_var=_pmclog_args_$name flags_var=_pmclog_flags_$name
  mine=$( (for o in ${!args_var}; do echo "$o arg"; done; for o in ${!flags_var}; do echo "$o flag"; done) | sort)
  theirs=$("$here/help_options.sh" "$bindir/$t" | sort)
  [[ $mine == "$theirs" ]] || fail "$t: completion lists differ from --help:
$(diff <(echo "$mine") <(echo "$theirs"))"
done

# Every value offered for an option is named in that option's help text.
help_of() {  # TOOL OPTION: the option's lines of --help
  "$1" --help | awk -v opt="$2" '
    /^  -/ { on = index($0, opt " ") > 0 || index($0, opt "]") > 0 || $0 ~ (opt "$") }
    /^$/ { on = 0 }
    on' | tr -s ' \n' ' '
}
for pair in pmclog-dump:--format pmclog-validate:--format pmclog-report:--format \
  pmclog-report:--by pmclog-report:--sort pmclog-write:--inject pmclog-dump:--byte-order \
  pmclog-dump:--generation pmclog-record:--generation; do
  t=${pair%%:*} o=${pair#*:}
  text=$(help_of "$t" "$o")
  [[ -n $text ]] || { fail "$t $o: not in --help"; continue; }
  values=$(_pmclog_values "$t" "$o")
  for v in ${values#list:}; do
    [[ $v == M ]] && continue  # "M (M9 or M10 ...)"
    grep -qw -- "$v" <<<"$text" || fail "$t $o offers '$v', which its help does not name: $text"
  done
done

# A few cases as a user types them.
expect "--format" pmclog-dump --form
expect "--pid --pmcid" pmclog-dump --p
expect "explain json jsonl pmcstat text" pmclog-dump --format ""
expect "json jsonl" pmclog-dump -f js
expect "json jsonl" pmclog-dump --format = js        # bash splits at '='
expect "--format=json --format=jsonl" pmclog-dump --format=js  # '=' not a word break
expect "github" pmclog-validate --format g
expect "M M10 M9" pmclog-dump --generation M
expect "L2 L3 M M10 M9" pmclog-record --generation ""
expect "big" pmclog-write --byte-order b
expect "4 8" pmclog-report --address-width ""
expect "synth" pmclog-write sy
expect "top,folded" pmclog-report --format top,fo
expect "perf-script pprof" pmclog-report --format p
expect "comm,dso" pmclog-report --by comm,d
expect "cpu-clock" pmclog-record -e cpu-cl
expect "cycles,task-clock" pmclog-record --event cycles,task-c
expect "" pmclog-dump --head ""                       # a number: nothing to offer
# A comma-separated list does not offer again what it holds already.
expect "comm,dso comm,object comm,pid comm,sym comm,symbol comm,thread comm,tid" pmclog-report --by comm,
expect "" pmclog-report --by comm,pid,co
expect "--by=comm,pid,dso" pmclog-report --by=comm,pid,d
expect "" pmclog-report --format top,t
expect "folded,top,callgraph folded,top,github folded,top,json folded,top,junit folded,top,perf-script folded,top,pprof folded,top,speedscope folded,top,svg" \
  pmclog-report --format folded,top,
got=$(run pmclog-record -e cycles,)
[[ " $got " != *" cycles,cycles "* && " $got " == *" cycles,task-clock "* ]] ||
  fail "pmclog-record -e cycles,: '$got'"
# Files after the options, and for file-valued options; commands after pmclog-record's --.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
touch "$dir/a.pmclog" "$dir/b.txt"
expect "$dir/a.pmclog" pmclog-dump --stats "$dir/a."
expect "$dir/b.txt" pmclog-validate -o "$dir/b"
got=$(run pmclog-record -- ech)
[[ " $got " == *" echo "* ]] || fail "pmclog-record -- ech: '$got' has no echo"
# Each word once. A command reached through two PATH entries (/bin and /usr/bin on merged
# /usr) is one command: here a folder and a link to it, both in PATH.
mkdir "$dir/bin"
ln -s bin "$dir/bin2"
printf '#!/bin/sh\n' >"$dir/bin/pmclogtestcmd"
chmod +x "$dir/bin/pmclogtestcmd"
got=$(PATH=$dir/bin:$dir/bin2:$PATH run pmclog-record -- pmclogtest)
[[ $got == pmclogtestcmd ]] || fail "pmclog-record -- pmclogtest: got '$got', want 'pmclogtestcmd' once"
got=$(run pmclog-record -- ech | tr ' ' '\n' | sort | uniq -d | tr '\n' ' ')
[[ -z $got ]] || fail "pmclog-record -- ech offers these more than once: $got"
((status == 0)) && echo "completion: lists match --help; every case completed as expected"
exit $status
