#!/bin/bash
# buildir.sh BIN [FLAGS]: instructions of a whole build of svc.txt (callgrind, one thread)
BIN=$1; shift
GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null $BIN build -q --format lines -o ${OUT:-/tmp/bir.snii} "$@" ${SVC:-svc.txt} 2>&1 | awk '/refs:/ {print $NF}'
