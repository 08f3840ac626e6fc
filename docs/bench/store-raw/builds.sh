#!/bin/bash
# interleaved builds: main's binary vs this branch's, /usr/bin/time -f "%e %U %S %M"
: "${MAIN:?main binary} ${NEW:?this branch binary} ${DIR:?folder with x4.jsonl, x16.jsonl} ${OUT:=.}"
for spec in "x4 default" "x4 64MiB" "x16 default" "x16 64MiB"; do
  set -- $spec
  in="$DIR"/$1.jsonl
  mem=""; [[ $2 != default ]] && mem="--memory $2"
  for b in main new; do
    bin="$MAIN"; [[ $b == new ]] && bin="$NEW"
    out="$OUT"/b-$1-$2-$b.snii
    rm -f $out
    r=$( { /usr/bin/time -f "%e %U %S %M" $bin build -q -o $out $mem --field content $in; } 2>&1 )
    echo "$1 $2 $b wall_user_sys_maxrsskb= $r sha=$(sha256sum $out | cut -c1-12) load=$(cut -d' ' -f1 /proc/loadavg)"
    rm -f $out
  done
done
