#!/bin/bash
# side by side, second round: ×16 --no-store, main and branch alternating
cd $WORK
one() { # bin input
  /usr/bin/time -f "%e %U %S %M" -o t.ab ./snii-$1 build -q -o ab-$1.snii --no-store --field content $2 2>/dev/null
  echo "$(basename $2) $1 $(cat t.ab) load=$(cut -d' ' -f1 /proc/loadavg)"
}
for b in br main main br br main; do one $b $BLD/x16.jsonl; done
echo done
