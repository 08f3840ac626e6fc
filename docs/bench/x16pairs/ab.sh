#!/bin/bash
# $WORK: a scratch directory with snii-main (main), snii-br (branch), snii-dbg/snii-brtr (the same with debug-assemble.patch and a runtime/trace switch in --cpuprofile); $BLD: x1/x4/x16.jsonl (the agent file catted 1, 4, 16 times); $CORPORA: the shared corpora
# side by side: main and branch alternating, CLI --no-store
export PATH=$PATH:/usr/local/go/bin
cd $WORK
one() { # bin input
  /usr/bin/time -f "%e %U %S %M" -o t.ab ./snii-$1 build -q -o ab-$1.snii --no-store --field content $2 2>/dev/null
  echo "$(basename $2) $1 $(cat t.ab) load=$(cut -d' ' -f1 /proc/loadavg)"
}
for i in 1; do one main $BLD/x16.jsonl; one br $BLD/x16.jsonl; one br $BLD/x16.jsonl; one main $BLD/x16.jsonl; done
for i in 1 2; do one main $BLD/x4.jsonl; one br $BLD/x4.jsonl; one br $BLD/x4.jsonl; one main $BLD/x4.jsonl; done
# traces: blocked time in pwrite, and where
for b in dbg brtr; do
  SNII_TRACE=1 /usr/bin/time -f "%e %U %S %M" -o t.tr ./snii-$b build -q -o tr-$b.snii --no-store --field content $BLD/x16.jsonl --cpuprofile tr-$b.out 2>ph-$b.txt
  go tool trace -pprof=syscall tr-$b.out > sys-$b.pb 2>/dev/null
  go tool trace -pprof=sync tr-$b.out > sync-$b.pb 2>/dev/null
  echo "trace $b $(cat t.tr) load=$(cut -d' ' -f1 /proc/loadavg) $(tr '\n' ' ' < ph-$b.txt)"
  go tool pprof -top -nodecount=3 ./snii-$b sys-$b.pb 2>/dev/null | grep -E "pwrite|pread|read$"
  go tool pprof -top -cum -nodecount=60 ./snii-$b sync-$b.pb 2>/dev/null | grep -E "handOver$|handOver.func1"
done
echo done
