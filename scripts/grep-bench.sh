#!/usr/bin/env bash
# Prints every matching line of phrase queries with `snii query` and with
# `rg -F -i` over the same data as one uncompressed file, whole processes timed
# by hyperfine (page cache warm, output through a pipe so that neither tool can
# stop early), and reports the median time of each tool per phrase and their
# ratio, and the mean CPU time (user + system) of each. Needs hyperfine, rg and bin/snii (make build).
#
#   scripts/grep-bench.sh DIR COPIES
#
# DIR/xCOPIES.jsonl is the agent logs (CORPUS) cat COPIES times, and
# DIR/xCOPIES.snii its segment (built with --field content when absent). The
# phrases are given to rg as written and to snii as a quoted phrase; their
# line counts are printed next to the times (token and substring matches
# differ a little: "only if the" is a substring of "commonly if the").
# With BASE=path/to/another/snii, that binary is timed in the same runs too
# (its median, and its time over bin/snii's, in two more columns), on the
# segment BASE_SEG (default: the same segment).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/grep-bench.sh DIR COPIES}
n=${2:?usage: scripts/grep-bench.sh DIR COPIES}
corpus=${CORPUS:-../shared/corpora/agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl}
runs=${RUNS:-10}
base=${BASE:-}
data=$dir/x$n.jsonl
seg=$dir/x$n.snii
if [[ ! -f $data ]]; then
  for _ in $(seq "$n"); do cat "$corpus"; done >"$data"
fi
if [[ ! -f $seg ]]; then
  bin/snii build -q -o "$seg" --field content "$data" >/dev/null
fi
phrases=("no such file or directory" "ModuleNotFoundError: No module named" "Traceback (most recent call last)"
  "the logic is" "is not defined" "the server" "here are some thoughts" "db/migrations" "lib/matplotlib" "def test_")
cat "$data" "$seg" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-40s %7s %7s %9s %9s %7s %9s %9s %7s' phrase "snii" "rg" "snii ms" "rg ms" "rg/snii" "snii cpu" "rg cpu" "rg/snii"
[[ -n $base ]] && printf ' %9s %9s' "base ms" "base/snii"
echo
for i in "${!phrases[@]}"; do
  p=${phrases[$i]}
  s=$(bin/snii query "$seg" --color never "\"$p\"" | wc -l)
  r=$(rg -F -i "$p" "$data" | wc -l)
  cmds=("bin/snii query $seg --color never '\"$p\"'" "rg -F -i '$p' $data")
  [[ -n $base ]] && cmds+=("$base query ${BASE_SEG:-$seg} --color never '\"$p\"'")
  hyperfine -N -w 2 -r "$runs" --output=pipe --export-json "$out/$i.json" "${cmds[@]}" >/dev/null 2>&1
  python3 - "$out/$i.json" "$p" "$s" "$r" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
sm, rm = res[0]["median"] * 1000, res[1]["median"] * 1000
sc, rc = [(r["user"] + r["system"]) * 1000 for r in res[:2]]
line = f"{sys.argv[2][:40]:<40} {sys.argv[3]:>7} {sys.argv[4]:>7} {sm:>9.1f} {rm:>9.1f} {rm / sm:>7.2f} {sc:>9.1f} {rc:>9.1f} {rc / sc:>7.2f}"
if len(res) > 2:
    bm = res[2]["median"] * 1000
    line += f" {bm:>9.1f} {bm / sm:>9.2f}"
print(line)
PY
done
