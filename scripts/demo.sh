#!/usr/bin/env bash
# The demo: build a segment from the demo corpus in testdata/demo, inspect it, and
# run phrase queries with their profile. Writes bin/snii and out/*.snii (make clean
# removes both). Needs only Go.
set -euo pipefail
cd "$(dirname "$0")/.."

# show prints a command the way you would type it, then runs it.
show() {
  local line="\$" a
  for a in "$@"; do
    if [[ "$a" =~ [[:space:]\"\'*()] ]]; then line+=" '${a//\'/\'\\\'\'}'"; else line+=" $a"; fi
  done
  if [[ -t 1 ]]; then printf '\n\033[1m%s\033[0m\n' "$line"; else printf '\n%s\n' "$line"; fi
  "$@"
}

mkdir -p bin out
show env CGO_ENABLED=0 go build -o bin/snii ./cmd/snii

# 3,000 synthetic application log lines, one document each (field "text").
show bin/snii build -o out/app.snii testdata/demo/app.log
show bin/snii inspect out/app.snii --top 8

# Queries print the matching lines as grep does, the matches highlighted on a
# terminal; -C shows the lines around them.
show bin/snii query out/app.snii '"connection refused"' -m 5
show bin/snii query out/app.snii '"payment failed: card declined"' -C 1 -m 2
show bin/snii query out/app.snii '"user alice logged in" OR "session expired for user alice"' -m 6
# Fuzzy terms (Lucene's term~N) and patterns over the dictionary's terms.
show bin/snii query out/app.snii 'declnied~1' -m 2
show bin/snii query out/app.snii '"connection /re(fused|set)/"' -m 2
# A regular expression over the records, narrowed first by the words it requires.
show bin/snii grep out/app.snii 'refused to db-[12]:5432' -m 3 --profile
# Records by doc id.
show bin/snii get out/app.snii 0 2999

# The ids and the plan instead (--ids). The profile shows what each query read and
# decoded: the .prx frames per codec, the bytes fetched, and how many positions
# were needed.
show bin/snii query out/app.snii '"connection refused"' --ids --profile
show bin/snii query out/app.snii '"timed out after*"' --ids --profile --limit 5
# A sloppy phrase with a negation, and the three best hits by BM25 with their score breakdown.
show bin/snii query out/app.snii '"connection refused"~2 -debug' --count
show bin/snii query out/app.snii 'payment declined' --top 3
show bin/snii query out/app.snii 'payment declined' --top 3 --explain

# JSON lines: each --field is a JSON path and becomes a field.
show bin/snii build -o out/events.snii --field msg --field user.name --field tags testdata/demo/events.jsonl
show bin/snii query out/events.snii --field user.name 'zo*' --count
show bin/snii query out/events.snii --field msg '"out of memory"' -m 3
show bin/snii verify out/app.snii out/events.snii

printf '\ndemo done: try bin/snii query out/app.snii --help\n'
