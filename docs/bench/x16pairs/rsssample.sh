#!/bin/bash
# $WORK: a scratch directory with snii-main (main), snii-br (branch), snii-dbg/snii-brtr (the same with debug-assemble.patch and a runtime/trace switch in --cpuprofile); $BLD: x1/x4/x16.jsonl (the agent file catted 1, 4, 16 times); $CORPORA: the shared corpora
# usage: rsssample.sh OUT cmd... : VmRSS (KB) every 0.1 s with stderr lines time-stamped
out=$1; shift
start=$(date +%s.%N)
"$@" 2> >(while read l; do echo "$(echo "$(date +%s.%N) - $start" | bc) $l"; done > $out.phases) &
pid=$!
while kill -0 $pid 2>/dev/null; do
  r=$(awk '/VmRSS/{print $2}' /proc/$pid/status 2>/dev/null)
  [ -n "$r" ] && echo "$(echo "$(date +%s.%N) - $start" | bc) $r"
  sleep 0.1
done > $out.rss
wait $pid
