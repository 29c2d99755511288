# Bash completion of pmclog-dump, pmclog-validate, pmclog-write, pmclog-record and
# pmclog-report: every option, and the values of the options that take a word from a list.
# Installed once under bash-completion's completions/ folder, with a link for each tool;
# zsh reads it through bashcompinit (completion/_pmclog). tests/install/completion_test.sh
# checks the option lists against each tool's --help, so that they cannot go stale.

# Long options by tool: those that take a value, then those that do not.
_pmclog_args_pmclog_dump="--format --top --type --pid --pmcid --cpu --from-offset --to-offset
  --head --sysroot --libpmc --generation --address-width --address-slot --byte-order --time-width"
_pmclog_flags_pmclog_dump="--help --version --explain --stats --show-abi --keep-going"
_pmclog_args_pmclog_validate="--disable --enable --max-cpu --format --output --max-errors
  --sysroot --libpmc --generation --address-width --address-slot --byte-order --time-width"
_pmclog_flags_pmclog_validate="--help --version --pedantic --strict --list-rules --quiet"
_pmclog_args_pmclog_write="--output --inject --inject-log --seed --file --generation
  --address-width --address-slot --byte-order --time-width --records --size --processes --depth --events
  --cpus --cpu-buffer-size"
_pmclog_flags_pmclog_write="--help --version --quiet --ibs --container"
_pmclog_args_pmclog_record="--event --period --freq --depth --pid --duration --output --kallsyms
  --mmap-pages --generation --address-width --byte-order --call-graph --tid --cpu"
_pmclog_flags_pmclog_record="--help --version --user-only --container --user-callchain
  --fallback --count --per-process --list-events --all-cpus --quiet"
_pmclog_args_pmclog_report="--format --output --by --sort --limit --min-width --width
  --title --callgraph-depth --max-stacks --jobs --alpha --fail-if --pid --tid --comm --event --cpu
  --from --to --sysroot --symfs
  --kernel --kallsyms --debug-dir --libpmc --generation --address-width --address-slot --byte-order --time-width"
_pmclog_flags_pmclog_report="--help --version --comm-frame --by-file --icicle --reverse --diff
  --no-progress --user-only --kernel-only --ibs --no-kallsyms --no-demangle --lines --inline
  --keep-going"

# Short options, as their long names.
_pmclog_long_of() {  # TOOL SHORT
  case "$1:$2" in
    *:-h) echo --help ;;
    *:-V) echo --version ;;
    *:-q) echo --quiet ;;
    *:-k) echo --keep-going ;;
    pmclog-dump:-f | pmclog-validate:-f) echo --format ;;
    pmclog-dump:-t) echo --type ;;
    pmclog-dump:-p | pmclog-record:-p) echo --pid ;;
    pmclog-record:-t) echo --tid ;;
    pmclog-record:-C) echo --cpu ;;
    pmclog-dump:-n) echo --head ;;
    pmclog-validate:-o | pmclog-write:-o | pmclog-record:-o | pmclog-report:-o) echo --output ;;
    pmclog-report:-z) echo --callgraph-depth ;;
    pmclog-report:-j) echo --jobs ;;
    pmclog-write:-n) echo --records ;;
    pmclog-write:-s) echo --size ;;
    pmclog-record:-e) echo --event ;;
    pmclog-record:-c) echo --period ;;
    pmclog-record:-F) echo --freq ;;
    pmclog-record:-a) echo --all-cpus ;;
    *) echo "$2" ;;
  esac
}

# The words an option's value is chosen from; "list:WORDS" for a comma-separated list,
# "file" or "dir" for a path, "" for a value that cannot be guessed.
_pmclog_values() {  # TOOL LONG-OPTION
  case "$1:$2" in
    pmclog-record:--generation) echo "L2 L3 M9 M10 M" ;;
    pmclog-record:--call-graph) echo "fp dwarf" ;;
    *:--generation) echo "L1 L2 L3 M9 M10 M" ;;
    *:--byte-order) echo "little big" ;;
    *:--address-width | *:--address-slot | *:--time-width) echo "4 8" ;;
    pmclog-dump:--format) echo "text pmcstat jsonl explain json" ;;
    pmclog-validate:--format) echo "text json github junit" ;;
    pmclog-report:--format) echo "list:top folded svg pprof callgraph perf-script speedscope json github junit" ;;
    pmclog-report:--by) echo "list:comm pid tid thread object dso symbol sym" ;;
    pmclog-report:--sort) echo "self total name object" ;;
    pmclog-record:--event)
      # The tool's own table: names and their aliases (the last line is the raw form).
      echo "list:$("$1" --list-events 2>/dev/null | awk 'NR > 1 && $1 != "rXXXX" {
        print $1; if ($3 != "-") { gsub(",", " ", $3); print $3 } }' | tr '\n' ' ')" ;;
    pmclog-write:--inject)
      echo "truncate bad-magic bad-length unknown-type unterminated-string overlong-callchain
        time-backwards" ;;
    *:--sysroot | pmclog-report:--symfs | pmclog-report:--debug-dir) echo dir ;;
    *:--output | *:--inject-log | *:--kernel | *:--kallsyms | *:--libpmc) echo file ;;
    *) echo "" ;;
  esac
}

_pmclog_files() {  # CUR: COMPREPLY becomes the files and folders (bash-completion's _filedir
  # when loaded, which appends)
  COMPREPLY=()
  if declare -F _filedir >/dev/null; then
    _filedir
  else
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -- "$1"))
  fi
}

_pmclog() {
  local tool=${COMP_WORDS[0]##*/} cur=${COMP_WORDS[COMP_CWORD]} prev="" prefix=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # --opt=value: bash splits the word at '=' (COMP_WORDBREAKS), or keeps it whole.
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == --*=* ]]; then
    prev=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
  fi
  local name=${tool//-/_}
  local args_var=_pmclog_args_$name flags_var=_pmclog_flags_$name
  local args=${!args_var-} flags=${!flags_var-}
  COMPREPLY=()
  [[ -z $args$flags ]] && return 0

  local opt
  opt=$(_pmclog_long_of "$tool" "$prev")
  if [[ " ${args//$'\n'/ } " == *" $opt "* && $prev == -* ]]; then
    local values
    values=$(_pmclog_values "$tool" "$opt")
    case $values in
      file) _pmclog_files "$cur" ;;
      dir) COMPREPLY=($(compgen -d -- "$cur")) ;;
      list:*)
        # Complete the last item of a comma-separated list, keeping the ones before it and
        # leaving out the items it holds already.
        # (A loop over the compgen words, not over a split string: zsh does not split
        # unquoted variables.)
        local head="" last=$cur word
        local -a words
        [[ $cur == *,* ]] && head=${cur%,*}, last=${cur##*,}
        words=($(compgen -W "${values#list:}" -- "$last"))
        for word in "${words[@]}"; do
          [[ ,$head == *,"$word",* ]] || COMPREPLY+=("$prefix$head$word")
        done ;;
      *) [[ -n $values ]] && COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "$cur")) ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$args $flags" -- "$cur"))
    return 0
  fi
  if [[ $tool == pmclog-write && $COMP_CWORD == 1 ]]; then
    COMPREPLY=($(compgen -W "synth" -- "$cur"))
  fi
  # pmclog-record runs a command after "--": leave that to the command's own completion.
  if [[ $tool == pmclog-record ]]; then
    local i
    for ((i = 1; i < COMP_CWORD; i++)); do
      if [[ ${COMP_WORDS[i]} == -- ]]; then
        # compgen -c lists a command once per PATH entry that holds it (/bin and /usr/bin
        # on merged /usr are one folder), and an alias or function of the same name again.
        local IFS=$'\n'
        COMPREPLY=($(compgen -c -- "$cur" | sort -u))
        return 0
      fi
    done
    return 0
  fi
  local keep=("${COMPREPLY[@]}")
  _pmclog_files "$cur"
  COMPREPLY=("${keep[@]}" "${COMPREPLY[@]}")
}

complete -F _pmclog pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report
