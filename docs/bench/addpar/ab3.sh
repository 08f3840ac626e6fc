#!/usr/bin/env bash
# ab3.sh SCALE PASSES STORE: CLI builds of the agent file ×SCALE by $WORK/base
# (main), $WORK/snii1 (one raw batch in flight) and $WORK/snii4 (four raw
# batches), order reversed every other pass. STORE is "" or --no-store.
set -u
scale=$1; passes=$2; st=${3:-}
for p in $(seq $passes); do
  order="base snii1 snii4"; (( p % 2 == 0 )) && order="snii4 snii1 base"
  for b in $order; do
    rm -f $WORK/ab3-$b.snii
    r=$( { /usr/bin/time -f "%e %U %S %M" $WORK/$b build -q -o $WORK/ab3-$b.snii $st --field content $BLD/x$scale.jsonl; } 2>&1 )
    echo "x$scale store=[${st}] pass=$p $b $r sha=$(sha256sum $WORK/ab3-$b.snii | cut -c1-12) load=$(cut -d' ' -f1 /proc/loadavg)"
  done
done
