#!/usr/bin/env bash
# counters.sh SEG RUNS BIN...: per phrase, perf stat (task-clock, page-faults, context-switches) of each binary in turn, RUNS rounds, medians; stdout to a pipe (cat >/dev/null)
seg=$1 runs=$2; shift 2
phrases=("no such file or directory" "ModuleNotFoundError: No module named" "Traceback (most recent call last)"
  "the logic is" "is not defined" "the server" "here are some thoughts" "db/migrations" "lib/matplotlib" "def test_")
printf '%-38s' phrase; for b in "$@"; do printf ' %22s' "$(basename $b) ms/faults"; done; echo
for p in "${phrases[@]}"; do
  declare -A tc pf
  for b in "$@"; do tc[$b]=""; pf[$b]=""; done
  for r in $(seq $runs); do
    for b in "$@"; do
      perf stat -x, -o "${TMPDIR:-/tmp}/.pst" -e task-clock,page-faults -- $b query $seg --color never "\"$p\"" | cat >/dev/null
      out=$(cat "${TMPDIR:-/tmp}/.pst")
      tc[$b]+="$(echo "$out" | awk -F, '/task-clock/{print $1}') "
      pf[$b]+="$(echo "$out" | awk -F, '/page-faults/{print $1}') "
    done
  done
  printf '%-38s' "${p:0:38}"
  for b in "$@"; do
    m1=$(echo ${tc[$b]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    m2=$(echo ${pf[$b]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf ' %13.1f %8d' "$m1" "$m2"
  done
  echo
done
