#!/bin/bash
# A/B: main's bench then fetchpar's, same corpus, back to back
export PATH=$PATH:/usr/local/go/bin:$(go env GOPATH)/bin
c=$1; round=$2
for side in main fetchpar; do
  if [ $side = main ]; then d=$MAIN/bench; else d=$BRANCH/bench; fi
  o=$OUT/$side-$c-$round
  mkdir -p $o
  echo "== $side $c round $round start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  (cd $d && $NICECMD go run ./cmd/peers store -corpus $c -cycles 6 -out $o $WORKARG) > $o/stdout.txt 2> $o/stderr.txt
  echo "== $side $c round $round end $(date -u +%T) rc $? load $(cut -d' ' -f1-3 /proc/loadavg)"
done
