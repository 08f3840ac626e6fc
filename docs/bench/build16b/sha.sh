#!/usr/bin/env bash
# sha.sh: the segment of each input, memory setting and store setting built by
# $WORK/base (main's binary) and $WORK/snii (the branch's); prints both sha256.
exec "$(dirname "$0")/../addpar/sha.sh" "$@"
