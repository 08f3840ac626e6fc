#!/bin/bash
# ab.sh SEG QFILE IDS OUT [R]: per query id, warm instructions per round (Ir(R)-Ir(1))/(R-1) of
# peers-base and peers-br, interleaved: "id base branch"
BASE=${BASE:?peers binary of the base}; BR=${BR:?peers binary of the branch}
SEG=$1; Q=$2; IDS=$3; OUT=$4; R=${5:-5}
: > "$OUT"
one() { # binary id rounds
  GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$1" profile -seg "$SEG" -queries "$Q" -ids "$2" -rounds $3 -cpuprofile "" 2>&1 >/dev/null | grep -o 'Collected : [0-9]*' | awk '{print $3}'
}
for i in ${IDS//,/ }; do
  b1=$(one $BASE $i 1); n1=$(one $BR $i 1)
  b5=$(one $BASE $i $R); n5=$(one $BR $i $R)
  echo "$i $(( (b5-b1)/(R-1) )) $(( (n5-n1)/(R-1) ))" >> "$OUT"
done
