#!/usr/bin/env bash
# Runs every Go fuzz target of the module for the given time each (default 3s).
set -euo pipefail
t=${1:-3s}
cd "$(dirname "$0")/.."
found=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u); do
    found=1
    echo "fuzz $pkg $target ($t)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" "$pkg" >"$log" 2>&1 || { cat "$log"; exit 1; }
  done
done
[ "$found" = 1 ] || echo "no fuzz targets yet"
