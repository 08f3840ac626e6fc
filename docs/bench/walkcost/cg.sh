#!/bin/bash
# callgrind instruction counts of `snii-BIN grep -c SET-SEG.snii REGEX`, run in the directory
# holding the binaries (snii-c9: main c9a7747, snii-568: main 568113e, snii-wcfinal: this branch)
# and the segments each wrote (SET-c9.snii, SET-568.snii; a wc* binary reads SET-568.snii, the
# same format 9):
#   cg.sh SET BIN... -- REGEX...
set=$1; shift
bins=()
while [ "$1" != "--" ]; do bins+=("$1"); shift; done; shift
for re in "$@"; do
  for b in "${bins[@]}"; do
    s=$b; case $b in wc*) s=568;; esac
    GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=cg-$b.out ./snii-$b grep -c $set-$s.snii "$re" > cg-$b.stdout 2> cg-$b.err
    ir=$(grep -o 'Collected : [0-9]*' cg-$b.err | awk '{print $3}')
    echo "$set	$b	$(cat cg-$b.stdout)	$ir	$re"
  done
done
