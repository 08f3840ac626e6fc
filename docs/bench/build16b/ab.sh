#!/usr/bin/env bash
# ab.sh COPIES PAIRS [FLAGS...]: builds of xCOPIES.jsonl by $WORK/base (main's
# binary) and $WORK/snii (the branch's), interleaved base snii snii base per
# two pairs; prints wall, user, sys (s) and peak RSS (KB) of each, with the load.
set -u
n=$1 pairs=$2
shift 2
for i in $(seq 1 "$pairs"); do
  if [ $((i % 2)) = 1 ]; then order="base snii"; else order="snii base"; fi
  for b in $order; do
    rm -f "$WORK/ab-$b.snii"
    load=$(cut -d' ' -f1 /proc/loadavg)
    t=$( { /usr/bin/time -f "%e %U %S %M" "$WORK/$b" build -q -o "$WORK/ab-$b.snii" "$@" --field content "$BLD/x$n.jsonl" >/dev/null; } 2>&1 )
    echo "x$n [$*] $b wall/user/sys/rssKB $t load $load $(date -u +%H:%M:%S)"
  done
done
