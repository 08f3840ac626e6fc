#!/bin/bash
# ir2.sh BIN MODE < phrases: instructions per round (callgrind, difference of 10 and 30 rounds)
BIN=$1; MODE=$2; SEG=${SEG:-/tmp/fetch/svc/store.snii}
ir() { GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null $BIN -seg $SEG -n $1 -mode $MODE $2 2>&1 | awk '/refs:/ {gsub(",","",$NF); print $NF}'; }
while read -r q; do a=$(ir 10 "$q"); b=$(ir 30 "$q"); echo "$q|$(( (b-a)/20 ))"; done
