#!/bin/bash
# hf.sh: hyperfine A/B, main's binary vs the branch's, on the startup cases

X4=$DIR/x4.snii; X16=$DIR/x16.snii  # and SVC, MAIN, BRANCH from the environment
M=$MAIN; B=$BRANCH; mkdir -p res
hf() { name=$1; shift; echo "== $name (load $(cut -d' ' -f1-3 /proc/loadavg))"; hyperfine -N --warmup 5 -r 30 --output=pipe --export-json res/hf-$name.json "$@" 2>&1 | grep -E "Time|±|faster|Benchmark" ; }
hf x4-zero "$M query $X4 '\"zzqx nothing here\"'" "$B query $X4 '\"zzqx nothing here\"'"
hf x4-count "$M query $X4 '\"is not defined\"' --count" "$B query $X4 '\"is not defined\"' --count"
hf x4-few "$M query $X4 '\"the logic is\"'" "$B query $X4 '\"the logic is\"'"
hf x4-print "$M query $X4 '\"is not defined\"'" "$B query $X4 '\"is not defined\"'"
hf x16-zero "$M query $X16 '\"zzqx nothing here\"'" "$B query $X16 '\"zzqx nothing here\"'"
hf x16-few "$M query $X16 '\"the logic is\"'" "$B query $X16 '\"the logic is\"'"
hf svc-zero "$M grep $SVC 'Connection refused'" "$B grep $SVC 'Connection refused'"
hf svc-561 "$M grep $SVC 'session opened for user [a-z]+'" "$B grep $SVC 'session opened for user [a-z]+'"
