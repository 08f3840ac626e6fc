#!/bin/bash
# cg.sh CORPUS SUB MODE [EXTRA-FLAGS SUFFIX]: counts (callgrind) the
# instructions of bench/cmd/subblock's 2,000 record fetches alone. Build the
# tool first: (cd bench && go build -o /tmp/subblock/sb ./cmd/subblock).
# Outputs go to $OUT (default /tmp/subblock).
mkdir -p "${OUT:-/tmp/subblock}"
out=${OUT:-/tmp/subblock}/cg.$1.$2.$3$5
cd "$(dirname "$0")/../../../bench" && GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
	--callgrind-out-file=$out.out --toggle-collect='main.fetch*' ${SB:-/tmp/subblock/sb} -corpus $1 -sub $2 -mode $3 -n 2000 $4 > $out.txt 2>$out.err
echo "$1 $2 $3 $(grep -o 'Collected : [0-9]*' $out.err) $(tail -1 $out.txt)"
