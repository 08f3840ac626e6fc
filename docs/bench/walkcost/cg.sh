#!/bin/bash
# cg.sh SET BIN... -- REGEX...: callgrind Ir of `snii-BIN grep -c SET-SEGBIN.snii RE`
# a binary named wc* reads the segment of 568 (same format 9).
cd /tmp/walkcost  # binaries snii-c9 (main c9a7747), snii-568 (main 568113e), snii-wcfinal (this branch); segments SET-c9.snii, SET-568.snii
set=$1; shift
bins=()
while [ "$1" != "--" ]; do bins+=("$1"); shift; done; shift
for re in "$@"; do
  for b in "${bins[@]}"; do
    s=$b; case $b in wc*) s=568;; esac
    out=/tmp/walkcost/cg-$b.out
    GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=$out ./snii-$b grep -c $set-$s.snii "$re" > /tmp/walkcost/cg-$b.stdout 2> /tmp/walkcost/cg-$b.err
    ir=$(grep -o 'Collected : [0-9]*' /tmp/walkcost/cg-$b.err | awk '{print $3}')
    echo "$set	$b	$(cat /tmp/walkcost/cg-$b.stdout)	$ir	$re"
  done
done
