#!/bin/bash
# Records of n ids spread over the service segment (one a block): wall per call and process CPU, main and fetchpar alternating
for n in ${NS:-6 8 16 32 64 128}; do
  reps=$((40000 / n))
  for i in 1 2; do for side in main fetchpar; do
    /usr/bin/time -f "  $side n=$n: %e s wall, %U user + %S sys" $OUT/drv-$side.bin -seg $OUT/svc-store.snii -queries $BRANCH/bench/queries/service.txt -spread $n -reps $reps 2>&1 | tr '\n' ' '; echo
  done; done
done
