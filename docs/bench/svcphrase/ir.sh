#!/bin/bash
# ir.sh PEERS SEG QUERIES IDS OUT [R1 R2]: for each query id of bench/queries/QUERIES, the
# instructions of `peers profile` at R1 and R2 rounds (default 20 and 100) and their
# difference / (R2-R1) (one count of the query, warm), one line "id Ir(R1) Ir(R2) per-round" in OUT.
P=$1; SEG=$2; Q=$3; IDS=$4; OUT=$(realpath -m "$5"); R1=${6:-20}; R2=${7:-100}
cd "$(dirname "$0")/../../../bench" || exit 1
tmp=$(mktemp)
: > "$OUT"
for i in ${IDS//,/ }; do
  for R in $R1 $R2; do
    GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$P" profile -seg "$SEG" -queries "queries/$Q" -ids "$i" -rounds $R -cpuprofile "" 2>"$tmp" >/dev/null
    eval "ir$R=$(grep -o 'Collected : [0-9]*' "$tmp" | awk '{print $3}')"
  done
  a=ir$R1; b=ir$R2
  echo "$i ${!a} ${!b} $(( (${!b}-${!a})/(R2-R1) ))" >> "$OUT"
done
rm -f "$tmp"
