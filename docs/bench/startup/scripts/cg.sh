#!/bin/bash
# cg.sh BIN ARGS...: instructions of the whole process (one thread, no async preemption)
GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/refs:/{gsub(",","",$4); print $4}'
