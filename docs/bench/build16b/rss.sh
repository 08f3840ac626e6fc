#!/usr/bin/env bash
# rss.sh RUNS: peak RSS (KB) of the branch's ×16 build with the store, at the
# default limit and at --memory 64MiB.
set -u
for i in $(seq 1 "$1"); do
  for mem in "" "--memory 64MiB"; do
    rm -f "$WORK/rss.snii"
    t=$( { /usr/bin/time -f "%e %M" "$WORK/snii" build -q -o "$WORK/rss.snii" $mem --field content "$BLD/x16.jsonl" >/dev/null; } 2>&1 )
    echo "x16 store mem=[$mem] wall/rssKB $t"
  done
done
