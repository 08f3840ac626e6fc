#!/usr/bin/env bash
# Per-package test times: builds each package's test binary, then runs it
# alone under /usr/bin/time and prints one line per package
#
#   package  wall-s  cpu-s (user+sys)  exit
#
# and the sums. Compilation is not timed. The CPU time is what to compare on a
# shared machine; the wall sum is an upper bound of a run with nothing else on it
# (go test runs packages in parallel).
#
#   scripts/testtime.sh                  # the flags of make test's go test
#   scripts/testtime.sh -race            # flags before the first package pattern
#   scripts/testtime.sh -short ./reader/ # one package
set -euo pipefail
cd "$(dirname "$0")/.."
flags=() pkgs=()
for a in "$@"; do
  case "$a" in .|./*|github.com/*) pkgs+=("$a") ;; *) flags+=("$a") ;; esac
done
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
build=() run=()
for f in "${flags[@]}"; do
  case "$f" in
    -race|-cover) build+=("$f") ;;
    -*) run+=("-test.${f#-}") ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total_wall=0 total_cpu=0
mod=$(go list -m)
for pkg in $(go list "${pkgs[@]}"); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  [ -n "$(go list -f '{{join .TestGoFiles ""}}{{join .XTestGoFiles ""}}' "$pkg")" ] || continue
  go test -c "${build[@]}" -o "$tmp/t.test" "$pkg"
  rc=0
  (cd "$dir" && /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$tmp/t.test" -test.count=1 -test.timeout=60m "${run[@]}" >"$tmp/out" 2>&1) || rc=$?
  read -r wall user sys <"$tmp/time" || true
  [ "$rc" = 0 ] || tail -n 20 "$tmp/out" >&2
  cpu=$(echo "$user + $sys" | bc)
  name=${pkg#"$mod"}
  printf '%-50s %8.2f %8.2f %s\n' "${name:-.}" "$wall" "$cpu" "$rc"
  total_wall=$(echo "$total_wall + $wall" | bc)
  total_cpu=$(echo "$total_cpu + $cpu" | bc)
done
printf '%-50s %8.2f %8.2f\n' "sum" "$total_wall" "$total_cpu"
