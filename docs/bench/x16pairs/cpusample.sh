#!/bin/bash
# $WORK: a scratch directory with snii-main (main), snii-br (branch), snii-dbg/snii-brtr (the same with debug-assemble.patch and a runtime/trace switch in --cpuprofile); $BLD: x1/x4/x16.jsonl (the agent file catted 1, 4, 16 times); $CORPORA: the shared corpora
# usage: cpusample.sh OUTPREFIX cmd...  ; samples utime+stime (ticks) every 0.25 s
out=$1; shift
start=$(date +%s.%N)
"$@" 2> >(while read l; do echo "$(echo "$(date +%s.%N) - $start" | bc) $l"; done > $out.phases) &
pid=$!
sleep 0.05
cpid=$pid
prev=0
while kill -0 $pid 2>/dev/null; do
  t=$(awk '{print $14+$15}' /proc/$cpid/stat 2>/dev/null) || break
  [ -z "$t" ] && break
  now=$(echo "$(date +%s.%N) - $start" | bc)
  echo "$now $((t-prev))"; prev=$t
  sleep 0.25
done > $out.cpu
wait $pid
