#!/bin/bash
# interleaved A/B of the fetch driver: main and fetchpar, 10 alternations, 100 reps a query each
Q=$BRANCH/bench/queries/service.txt
seg=${SEG:-$OUT/svc-store.snii}
out=$1; lock=$2
rm -f $out
for i in $(seq 1 ${ALT:-10}); do
  for side in main fetchpar; do
    $OUT/drv-$side.bin -seg $seg -queries ${QF:-$Q} -reps ${REPS:-100} -lock=$lock | sed "s/^/$side\t/" >> $out
  done
done
