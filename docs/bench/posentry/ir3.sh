#!/bin/bash
# ir3.sh PEERS SEG IDS R: per-round Ir of agent.txt query ids ((R rounds - 1 round)/(R-1))
P=$1; SEG=$2; IDS=$3; RR=${4:-17}
Q=$(dirname "$0")/../../../bench/queries/agent.txt
tmp=$(mktemp)
for i in ${IDS//,/ }; do
  for R in 1 $RR; do
    GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$P" profile -seg "$SEG" -queries "$Q" -ids "$i" -rounds $R -cpuprofile "" 2>"$tmp" >/dev/null
    eval "ir$R=$(grep -o 'Collected : [0-9]*' "$tmp" | awk '{print $3}')"
  done
  echo "$i $(( (ir$RR-ir1)/(RR-1) ))"
done
rm -f "$tmp"
