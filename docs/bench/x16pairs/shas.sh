#!/bin/bash
# $WORK: a scratch directory with snii-main (main), snii-br (branch), snii-dbg/snii-brtr (the same with debug-assemble.patch and a runtime/trace switch in --cpuprofile); $BLD: x1/x4/x16.jsonl (the agent file catted 1, 4, 16 times); $CORPORA: the shared corpora
# sha256 and peak RSS of main's and the branch's segments, per input and flags
cd $WORK
L=$CORPORA/loghub/full
run() { # name flags... -- input args
  name=$1; shift
  for b in main br; do
    /usr/bin/time -f "%e %U %S %M" -o t.$b ./snii-$b build -q -o o-$b.snii "$@" 2>/dev/null || echo "FAIL $b $name"
    echo "$name $b $(sha256sum < o-$b.snii | cut -c1-12) $(cat t.$b) load=$(cut -d' ' -f1 /proc/loadavg)"
  done
}
run x1-store --field content $BLD/x1.jsonl
run x1-nostore --no-store --field content $BLD/x1.jsonl
run x1-nostore-8MiB --no-store --memory 8MiB --field content $BLD/x1.jsonl
run x4-store --field content $BLD/x4.jsonl
run x4-store-64MiB --memory 64MiB --field content $BLD/x4.jsonl
run x4-nostore --no-store --field content $BLD/x4.jsonl
run svc --format lines $L/Apache.log $L/Linux.log $L/Proxifier.log
run svc-64MiB --memory 64MiB --format lines $L/Apache.log $L/Linux.log $L/Proxifier.log
run x16-store --field content $BLD/x16.jsonl
run x16-store-64MiB --memory 64MiB --field content $BLD/x16.jsonl
run x16-nostore --no-store --field content $BLD/x16.jsonl
run x16-nostore-64MiB --no-store --memory 64MiB --field content $BLD/x16.jsonl
echo done
