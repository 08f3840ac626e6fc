#!/usr/bin/env bash
# Times `snii grep SEGMENT RE` against `rg RE FILE` side by side, whole
# processes, page cache warm: each regexp runs RUNS times (default 7) per
# tool, alternating, after one warm-up run each; prints the median wall times,
# their ratio and whether both printed the same lines.
#
#   scripts/grepbench.sh SEGMENT FILE REGEX...
#
# SEGMENT must be built from FILE as lines (snii build --format lines).
set -euo pipefail
seg=$1 file=$2
shift 2
runs=${RUNS:-7}
snii=${SNII:-snii}
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-40s %8s %10s %10s %8s %s\n' regexp lines "rg ms" "snii ms" "rg/snii" same
for re in "$@"; do
  a=$("$snii" grep --color never "$seg" "$re" 2>/dev/null | md5sum)
  b=$(rg --no-config --color never "$re" "$file" | md5sum || true)
  lines=$(rg --no-config -c "$re" "$file" || echo 0)
  same=no
  [ "$a" = "$b" ] && same=yes
  : >/tmp/grepbench.rg; : >/tmp/grepbench.snii
  for i in $(seq "$runs"); do
    t=$(now); rg --no-config --color never "$re" "$file" >/dev/null || true; echo $(( ($(now) - t) / 1000 )) >>/tmp/grepbench.rg
    t=$(now); "$snii" grep --color never "$seg" "$re" >/dev/null 2>&1; echo $(( ($(now) - t) / 1000 )) >>/tmp/grepbench.snii
  done
  r=$(median </tmp/grepbench.rg) s=$(median </tmp/grepbench.snii)
  printf '%-40s %8s %10.1f %10.1f %8.1f %s\n' "$re" "$lines" "$(echo "$r/1000" | bc -l)" "$(echo "$s/1000" | bc -l)" "$(echo "$r/$s" | bc -l)" "$same"
done
rm -f /tmp/grepbench.rg /tmp/grepbench.snii
