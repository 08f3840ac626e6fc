#!/usr/bin/env python3
# table.py QUERIES BASE AFTER: a markdown table of per-query Ir (ir.sh outputs) before and after.
import sys
qs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
def load(f):
    return {int(l.split()[0]): int(l.split()[3]) for l in open(f) if l.strip()}
b, a = load(sys.argv[2]), load(sys.argv[3])
print("| id | phrase | base Ir | after Ir | change |")
print("|---|---|---|---|---|")
for i in sorted(b):
    if i in a:
        print(f"| {i} | `{qs[i][2]}` | {b[i]:,} | {a[i]:,} | {100*(a[i]-b[i])/b[i]:+.1f}% |")
