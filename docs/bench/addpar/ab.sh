#!/usr/bin/env bash
# ab.sh SCALE PAIRS: CLI builds of the agent file ×SCALE by $WORK/base (main's
# binary) and $WORK/snii (the branch's), interleaved A B B A, PAIRS times,
# with and without the store. One line per build: wall user sys maxrss_kb load.
set -u
scale=$1; pairs=$2
for st in "--no-store" ""; do
  for p in $(seq $pairs); do
    for b in base snii snii base; do
      rm -f $WORK/ab-$b.snii
      r=$( { /usr/bin/time -f "%e %U %S %M" $WORK/$b build -q -o $WORK/ab-$b.snii $st --field content $BLD/x$scale.jsonl; } 2>&1 )
      echo "x$scale store=[${st}] pair=$p $b $r load=$(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
