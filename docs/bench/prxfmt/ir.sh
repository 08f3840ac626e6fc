#!/bin/bash
# usage: ir.sh DRV SEG OUT: per query I of all.q a line "I Ir(R=0) Ir(R=4) (Ir(R=4)-Ir(R=0))/4"
drv=$1 seg=$2 out=$3
: > $out
for I in $(seq 0 39); do
  r=()
  for R in 0 4; do
    v=$(GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null $drv -seg $seg -q all.q -only $I -rounds $R 2>&1 | awk '/refs:/{gsub(",","",$4); print $4}')
    r+=($v)
  done
  echo "$I ${r[0]} ${r[1]} $(( (r[1]-r[0])/4 ))" >> $out
done
