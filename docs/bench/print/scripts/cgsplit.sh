#!/usr/bin/env bash
# cgsplit.sh OUT: instructions of a callgrind profile by category (exclusive counts)
callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null | awk '
/PROGRAM TOTALS/ {gsub(",","",$1); total=$1; next}
/^ *[0-9,]+ \(/ {
  n=$1; gsub(",","",n); n+=0; f=$0
  if (f ~ /klauspost\/compress/) c="zstd"
  else if (f ~ /hash\/crc32/) c="crc32c"
  else if (f ~ /runtime\/memmove|runtime\/memclr/) c="copy/clear"
  else if (f ~ /regexp|redfa|bytes\.Index|indexbyte|bytealg/) c="regexp"
  else if (f ~ /reader\/store|format\/store|storeIndex|SplitStore|DecodeStore/) c="store index/split"
  else if (f ~ /cmd\/snii|bufio|syscall|internal\/poll|os\/file/) c="cli/output"
  else if (f ~ /snii\//) c="query"
  else if (f ~ /\/runtime\//) c="runtime"
  else c="other"
  s[c]+=n
}
END { for (k in s) printf "%-18s %14.0f %6.1f%%\n", k, s[k], 100*s[k]/total; printf "%-18s %14.0f\n", "total", total }' | sort -k2 -n -r
