#!/usr/bin/env bash
# The demo: build an index from testdata/, inspect it, run phrase queries with a profile.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "demo: not yet (the CLI lands with issue 6)"
