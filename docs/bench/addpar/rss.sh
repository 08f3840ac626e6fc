#!/usr/bin/env bash
# rss.sh: peak RSS of the ×16 CLI build (with the store) by $WORK/snii, 3 runs
# with the default limit and 3 with --memory 64MiB.
set -u
for mem in "" "--memory 64MiB"; do
  for i in 1 2 3; do
    rm -f $WORK/rss.snii
    r=$( { /usr/bin/time -v $WORK/snii build -q -o $WORK/rss.snii $mem --field content $BLD/x16.jsonl; } 2>&1 | sed -n 's/.*Maximum resident set size (kbytes): //p')
    echo "x16 mem=[${mem}] run=$i maxrss_kb=$r sha=$(sha256sum $WORK/rss.snii | cut -c1-16) load=$(cut -d' ' -f1 /proc/loadavg)"
  done
done
