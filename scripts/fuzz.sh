#!/usr/bin/env bash
# Runs every Go fuzz target of the module, one after another.
#
#   scripts/fuzz.sh 30000x   each target for 30000 executions (make fuzz-smoke, in make test-long)
#   scripts/fuzz.sh 2m       each target for two minutes (make fuzz, by hand)
#
# A count ("Nx") is what CI uses: it has no wall-clock deadline, so a loaded
# machine only makes the run slower. A duration can hit a race in Go's fuzz
# coordinator (go.dev/issue/75804, fixed in Go 1.27): when -fuzztime expires
# while a worker is mid-call the target fails with a bare "context deadline
# exceeded" and no failing input. Such a run is retried once; any failure that
# wrote a failing input, or a second deadline failure, fails the script.
#
# MINIMIZE (default 50x for counts, 30s for durations) bounds the minimization
# of each new interesting input, which otherwise takes up to a minute on the
# segment-sized seeds and leaves a short run no time to fuzz.
set -euo pipefail
t=${1:-30000x}
case "$t" in
  *x) minimize=${MINIMIZE:-50x} ;;
  *) minimize=${MINIMIZE:-30s} ;;
esac
cd "$(dirname "$0")/.."
found=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# deadline_flake: the log shows the coordinator race and nothing else went wrong.
deadline_flake() {
  grep -q 'context deadline exceeded' "$log" &&
    ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"
}

for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u); do
    found=1
    echo "fuzz $pkg $target ($t)"
    for attempt in 1 2; do
      if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" -fuzzminimizetime "$minimize" "$pkg" >"$log" 2>&1; then
        break
      fi
      if [ "$attempt" = 1 ] && deadline_flake; then
        echo "  $target: bare 'context deadline exceeded' at the -fuzztime boundary, no failing input (go.dev/issue/75804); retrying once"
        continue
      fi
      cat "$log"
      exit 1
    done
  done
done
[ "$found" = 1 ] || echo "no fuzz targets yet"
