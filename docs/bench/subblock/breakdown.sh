#!/bin/bash
# breakdown.sh NAME...: per fetch (of 2,000), the instructions of a cg.sh
# output $OUT/NAME.out by klauspost/compress function group.
for f in "$@"; do
	callgrind_annotate --inclusive=no --threshold=100 --auto=no ${OUT:-/tmp/subblock}/$f.out | awk -v f=$f '
/PROGRAM TOTALS/ {gsub(",","",$1); tot=$1}
/file:function/ {on=1}
on && /sequenceDecs_decodeSync/ {gsub(",","",$1); seq+=$1}
on && /huff0.ReadTable/ {gsub(",","",$1); ht+=$1}
on && /buildDtable|readNCount|fse\/decompress.go|fse\/bitreader.go/ {gsub(",","",$1); fse+=$1}
on && /huff0\/decompress_amd64.s/ {gsub(",","",$1); lit+=$1}
END {printf "%-26s total %6.1fK  seq-exec %5.1fK  huff-table %5.1fK  fse-tables %5.1fK  huff-streams %5.1fK\n", f, tot/2000/1000, seq/2000/1000, ht/2000/1000, fse/2000/1000, lit/2000/1000}'
done
