#!/usr/bin/env bash
# sha.sh: the segment of each input, memory setting and store setting built by
# $WORK/base (main's binary) and $WORK/snii (the branch's); prints both sha256.
set -u
SVC="--format lines $CORPORA/loghub/full/Apache.log $CORPORA/loghub/full/Linux.log $CORPORA/loghub/full/Proxifier.log"
for in in x1 x4 x16 svc; do
  case $in in svc) args=$SVC ;; *) args="--field content $BLD/$in.jsonl" ;; esac
  for mem in "" "--memory 64MiB"; do
    for st in "" "--no-store"; do
      for b in base snii; do
        rm -f $WORK/sha-$b.snii
        $WORK/$b build -q -o $WORK/sha-$b.snii $mem $st $args
        echo "$in mem=[${mem}] store=[${st}] $b $(sha256sum $WORK/sha-$b.snii | cut -c1-16)"
      done
    done
  done
done
