#!/usr/bin/env bash
# Times `snii grep SEGMENT RE` against `rg RE FILE` side by side, whole
# processes, page cache warm: each regexp runs RUNS times (default 7) per
# tool, alternating, after one warm-up run each; prints the median wall
# times, their ratio, the median CPU times (user+system of the process, from
# bash's time: less sensitive to a loaded machine than the wall time), their
# ratio and whether both printed the same lines.
#
#   scripts/grepbench.sh SEGMENT FILE REGEX...
#
# SEGMENT must be built from FILE as lines (snii build --format lines).
# SNII names the snii binary (default: snii on PATH). With BASE=path/to/another/snii,
# that binary is timed in the same runs too (its median wall and CPU times and
# their ratios to SNII's, in more columns; BASE_SEG: its segment, default
# SEGMENT).
set -euo pipefail
seg=$1 file=$2
shift 2
runs=${RUNS:-7}
snii=${SNII:-snii}
base=${BASE:-}
bseg=${BASE_SEG:-$seg}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# run LABEL CMD...: one timed run, appending wall and CPU ms to $tmp/LABEL.{wall,cpu}
run() {
  local label=$1
  shift
  local TIMEFORMAT='%3R %3U %3S'
  { time "$@" >/dev/null 2>&1 || true; } 2>"$tmp/t"
  awk '{printf "%.1f\n", $1*1000}' "$tmp/t" >>"$tmp/$label.wall"
  awk '{printf "%.1f\n", ($2+$3)*1000}' "$tmp/t" >>"$tmp/$label.cpu"
}
printf '%-40s %8s %9s %9s %8s %9s %9s %8s %4s' regexp lines "rg ms" "snii ms" "rg/snii" "rg cpu" "snii cpu" "cpu r/s" same
[[ -n $base ]] && printf ' %9s %9s %9s %9s' "base ms" "base/snii" "base cpu" "cpu b/s"
echo
for re in "$@"; do
  a=$("$snii" grep --color never "$seg" "$re" 2>/dev/null | md5sum)
  b=$(rg --no-config --color never "$re" "$file" | md5sum || true)
  lines=$(rg --no-config -c "$re" "$file" || echo 0)
  same=no
  [ "$a" = "$b" ] && same=yes
  rm -f "$tmp"/*.wall "$tmp"/*.cpu
  for i in $(seq "$runs"); do
    run rg rg --no-config --color never "$re" "$file"
    run snii "$snii" grep --color never "$seg" "$re"
    [[ -n $base ]] && run base "$base" grep --color never "$bseg" "$re"
  done
  rw=$(median <"$tmp/rg.wall") sw=$(median <"$tmp/snii.wall")
  rc=$(median <"$tmp/rg.cpu") sc=$(median <"$tmp/snii.cpu")
  printf '%-40s %8s %9.1f %9.1f %8.2f %9.1f %9.1f %8.2f %4s' "$re" "$lines" "$rw" "$sw" "$(echo "$rw/$sw" | bc -l)" \
    "$rc" "$sc" "$(echo "$rc/($sc+0.001)" | bc -l)" "$same"
  if [[ -n $base ]]; then
    bw=$(median <"$tmp/base.wall") bc=$(median <"$tmp/base.cpu")
    printf ' %9.1f %9.2f %9.1f %9.2f' "$bw" "$(echo "$bw/$sw" | bc -l)" "$bc" "$(echo "$bc/($sc+0.001)" | bc -l)"
  fi
  echo
done
