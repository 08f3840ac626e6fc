#!/usr/bin/env python3
"""table.py QUERIES AB: a markdown table of ab.sh's output (id, base Ir, branch Ir
per round) for the queries of QUERIES (bench/queries/*.txt), and a summary over
the rows whose base is at least 100,000 Ir (below, two runs of one binary differ
by more than the change)."""
import statistics, sys

qs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
rows = [tuple(int(x) for x in l.split()) for l in open(sys.argv[2]) if l.strip()]
print("| # | query | base Ir | branch Ir | change |")
print("|---|---|---|---|---|")
ch, sb, sn = [], 0, 0
for i, b, n in rows:
    kind, _, text = qs[i]
    if b >= 100_000:
        c = 100 * (n - b) / b
        ch.append(c); sb += b; sn += n
        cs = f"{c:+.1f}%"
    else:
        cs = "–"
    print(f"| {i} | {kind} `{text}` | {b:,} | {n:,} | {cs} |")
if ch:
    print()
    print(f"{len(ch)} queries ≥ 100,000 Ir: median change {statistics.median(ch):+.1f}%, "
          f"best {min(ch):+.1f}%, worst {max(ch):+.1f}%, sum {sb:,} → {sn:,} ({100*(sn-sb)/sb:+.1f}%)")
