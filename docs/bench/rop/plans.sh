#!/bin/bash
# plans.sh BASE BR SEG QFILE OUT: the --count --profile of every phrase of QFILE (bench/queries/*.txt)
# by both snii binaries, less the time line; OUT holds the phrases whose profiles differ, with both.
BASE=$1; BR=$2; SEG=$3; Q=$4; OUT=$5
: > "$OUT"
grep -v '^#' "$Q" | awk -F'\t' '$1=="phrase"{print $3}' | while IFS= read -r ph; do
  a=$("$BASE" query --count --profile "$SEG" "\"$ph\"" 2>&1 | grep -v '^time')
  b=$("$BR" query --count --profile "$SEG" "\"$ph\"" 2>&1 | grep -v '^time')
  if [ "$a" != "$b" ]; then printf '== %s\n-- base\n%s\n-- branch\n%s\n' "$ph" "$a" "$b" >> "$OUT"; fi
done
echo "$(grep -c '^== ' "$OUT") phrases differ" >> "$OUT"
