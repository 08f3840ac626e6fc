#!/bin/bash
# pipes.sh OLD NEW SEG: each command line of both binaries into a pipe that
# closes after one line (exit status, stderr), and into a file (exit status,
# bytes, equal outputs).
OLD=$1 NEW=$2 SEG=$3
cmds=("query $SEG the" "query $SEG the -C1" "query $SEG the --json" "query $SEG the --top 5000" "grep $SEG th.." "grep $SEG -c th.." "query $SEG the --ids --limit 0" "query $SEG the --count" "get $SEG 0 5 9 100" "inspect $SEG")
echo "## into | head -1: exit status (PIPESTATUS), stderr bytes"
for b in "$OLD" "$NEW"; do for args in "${cmds[@]}"; do
  $b $args 2>err.txt | head -1 >/dev/null; echo "$(basename $b) $args: status ${PIPESTATUS[0]}, stderr $(wc -c < err.txt) bytes"
done; done
echo "## into a file: exit old new, stdout bytes old new, stdout and stderr equal"
for args in "${cmds[@]}"; do
  $OLD $args > o.txt 2>oe.txt; a=$?; $NEW $args > n.txt 2>ne.txt; b=$?
  echo "$args: $a $b $(wc -c < o.txt) $(wc -c < n.txt) $(cmp -s o.txt n.txt && echo same || echo DIFF) $(cmp -s oe.txt ne.txt && echo same-stderr || echo STDERR-DIFF)"
done
