#!/bin/bash
# ir.sh PEERS SEG IDS OUT: for each query id of bench/queries/agent.txt, the
# instructions of `peers profile` at 1 and 5 rounds and their difference / 4
# (one count of the query, warm), one line "id Ir(1) Ir(5) per-round" in OUT.
P=$1; SEG=$2; IDS=$3; OUT=$(realpath -m "$4")
cd "$(dirname "$0")/../../../bench" || exit 1
tmp=$(mktemp)
: > "$OUT"
for i in ${IDS//,/ }; do
  for R in 1 5; do
    GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$P" profile -seg "$SEG" -queries queries/agent.txt -ids "$i" -rounds $R -cpuprofile "" 2>"$tmp" >/dev/null
    eval "ir$R=$(grep -o 'Collected : [0-9]*' "$tmp" | awk '{print $3}')"
  done
  echo "$i $ir1 $ir5 $(( (ir5-ir1)/4 ))" >> "$OUT"
done
rm -f "$tmp"
