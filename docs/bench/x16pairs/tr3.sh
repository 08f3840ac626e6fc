#!/bin/bash
export PATH=$PATH:/usr/local/go/bin
cd $WORK
for b in brtr dbg dbg brtr brtr dbg; do
  SNII_TRACE=1 /usr/bin/time -f "%e %U %S %M" -o t.tr ./snii-$b build -q -o tr-$b.snii --no-store --field content $BLD/x16.jsonl --cpuprofile tr-$b.out 2>ph-$b.txt
  go tool trace -pprof=sync tr-$b.out > sync-$b.pb 2>/dev/null
  go tool trace -pprof=syscall tr-$b.out > sys-$b.pb 2>/dev/null
  echo "trace $b $(cat t.tr) load=$(cut -d' ' -f1 /proc/loadavg) $(tr '\n' ' ' < ph-$b.txt) | $(go tool pprof -top -nodecount=3 ./snii-$b sys-$b.pb 2>/dev/null | grep -E 'pwrite' | awk '{print "pwrite", $1}') | $(go tool pprof -top -cum -nodecount=60 ./snii-$b sync-$b.pb 2>/dev/null | grep -E 'handOver$' | awk '{print "handOver-wait", $4}')"
done
echo done
