#!/bin/bash
# process CPU (user+sys, all threads) of the fetch driver, main and fetchpar alternating
Q=$BRANCH/bench/queries/service.txt
for i in 1 2 3; do for side in main fetchpar; do
  /usr/bin/time -f "$side %e s wall %U user %S sys" $OUT/drv-$side.bin -seg $OUT/svc-store.snii -queries $Q -reps ${REPS:-400} ${ONLY:+-only "$ONLY"} > /dev/null
done; done
