#!/bin/bash
# topir.sh BASE BRANCH SEG OUT: instructions per Top call (k = 10) of the agent
# phrases 0-18 of bench/queries/agent.txt on segment SEG, for the topir
# binaries BASE and BRANCH: (Ir at 10 reps - Ir at 5 reps) / 5, one line
# "phrase base branch" in OUT.
A=$1; B=$2; SEG=$(realpath "$3"); OUT=$(realpath -m "$4")
cd "$(dirname "$0")/../../../bench" || exit 1
: > "$OUT"
grep -v '^#' queries/agent.txt | grep -v '^$' | head -19 | cut -f3 | while read -r q; do
  line="$q"
  for bin in "$A" "$B"; do
    for R in 5 10; do
      eval "ir$R=$(GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" -seg "$SEG" -reps $R "phrase:$q" 2>&1 >/dev/null | grep -o 'Collected : [0-9]*' | awk '{print $3}')"
    done
    line="$line	$(( (ir10-ir5)/5 ))"
  done
  echo "$line" >> "$OUT"
done
