#!/bin/bash
# callgrind instruction counts of `snii grep -c`, branch and main, each on its own segment:
#   cg.sh SET SEG-SUFFIX REGEX...   (segments SET-branch.snii and SET-main.snii)
cd /tmp/skipdocs
set=$1; shift
for re in "$@"; do
  for b in branch main; do
    GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/tmp/skipdocs/cg.out ./snii-$b grep -c $set-$b.snii "$re" > /tmp/skipdocs/cg.stdout 2> /tmp/skipdocs/cg.err
    ir=$(grep -o 'Collected : [0-9]*' /tmp/skipdocs/cg.err | awk '{print $3}')
    echo "$set	$b	$(cat /tmp/skipdocs/cg.stdout)	$ir	$re"
  done
done
