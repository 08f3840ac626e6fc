#!/bin/bash
# cgall.sh BIN...: whole-process instructions (GOMAXPROCS=1, no async preemption) of the startup cases, per binary
# DIR holds x4.snii and x16.snii (scripts/grep-bench.sh), SVC the service segment
X4=$DIR/x4.snii; X16=$DIR/x16.snii
run() { # run BIN ARGS...
  GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/refs:/{gsub(",","",$4); print $4}'
}
while IFS='|' read -r cmd seg arg extra; do
  seg=$(eval echo "$seg")
  line="$cmd $(basename "$seg") $arg $extra"
  for b in "$@"; do
    if [[ -n $extra ]]; then n=$(run "$b" "$cmd" "$seg" "$arg" $extra); else n=$(run "$b" "$cmd" "$seg" "$arg"); fi
    line="$line | $n"
  done
  echo "$line"
done <<'CASES'
query|$X4|"zzqx nothing here"|
query|$X4|"is not defined"|--count
query|$X4|"the logic is"|
query|$X4|"is not defined"|
query|$X4|"no such file or directory"|
query|$X16|"zzqx nothing here"|
query|$X16|"is not defined"|--count
query|$X16|"the logic is"|
query|$X16|"no such file or directory"|
grep|$SVC|Connection refused|
grep|$SVC|session opened for user [a-z]+|
grep|$SVC|jk2_init\(\) Found child [0-9]+|
CASES
