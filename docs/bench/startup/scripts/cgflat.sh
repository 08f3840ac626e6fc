#!/bin/bash
# cgflat.sh CALLGRIND.OUT: exclusive instructions per function (recursion levels merged)
callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null | awk '$1 ~ /^[0-9,]+$/ && $2 ~ /^\(/ {gsub(",","",$1); n=$1; $1=""; $2=""; sub(/^ +/,""); sub(/ \[.*$/,""); sub(/^.*:/,""); sub(/'"'"'[0-9]+$/,""); a[$0]+=n} END{for(k in a) print a[k]"\t"k}' | sort -t$'\t' -k2
