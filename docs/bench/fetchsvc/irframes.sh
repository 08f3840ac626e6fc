#!/bin/bash
# irframes.sh CORPUS FRAME...: decode instructions per block (callgrind, difference of 1 and 3 rounds)
C=$1; shift
ir() { GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null ${STOREFRAMES:-storeframes} -corpora ../shared/corpora -corpus $C -decode $2 -rounds $1 2>&1 | awk '/refs:/ {gsub(",","",$NF); print $NF}'; }
nb=$(${STOREFRAMES:-storeframes} -corpora ../shared/corpora -corpus $C -frames none | awk '/^corpus/ {print $5}')
for f in "$@"; do a=$(ir 1 $f); b=$(ir 3 $f); echo "$C $f Ir/block $(( (b-a)/2/nb ))"; done
