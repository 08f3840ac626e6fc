#!/bin/bash
# split.sh BASE NOVERIFY SEG IDS OUT: for each query id of bench/queries/agent.txt,
# the instructions of one count of the query (callgrind, (5 rounds - 1 round) / 4):
# the whole query (BASE, a `peers` binary of main), the conjunction alone
# (NOVERIFY: a `peers` binary built with noverify.diff applied, run with
# NOVERIFY=1: every common document counts as a match, none is verified), and
# the instructions of the query spent in zstd (klauspost/compress and
# internal/codec/zstdopt functions, exclusive, from callgrind_annotate).
# One line "id total conjunction verify zstd" per query in OUT.
B=$1; N=$2; SEG=$3; IDS=$4; OUT=$(realpath -m "$5")
cd "$(dirname "$0")/../../../bench" || exit 1
dir=$(mktemp -d)
run() { # run BIN ROUNDS FILE [env]
  env $4 GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$3" \
    "$1" profile -seg "$SEG" -queries queries/agent.txt -ids "$i" -rounds "$2" -cpuprofile "" >/dev/null 2>&1
}
tot() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}'; }
zs() { callgrind_annotate --threshold=100 --auto=no "$1" 2>/dev/null |
  awk '/klauspost\/compress|zstdopt/ {gsub(",","",$1); s+=$1} END {print s+0}'; }
: > "$OUT"
for i in ${IDS//,/ }; do
  run "$B" 1 "$dir/b1"; run "$B" 5 "$dir/b5"
  run "$N" 1 "$dir/n1" NOVERIFY=1; run "$N" 5 "$dir/n5" NOVERIFY=1
  t=$(( ($(tot "$dir/b5") - $(tot "$dir/b1")) / 4 ))
  c=$(( ($(tot "$dir/n5") - $(tot "$dir/n1")) / 4 ))
  z=$(( ($(zs "$dir/b5") - $(zs "$dir/b1")) / 4 ))
  echo "$i $t $c $((t-c)) $z" >> "$OUT"
done
rm -rf "$dir"
