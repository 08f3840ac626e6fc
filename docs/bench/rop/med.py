#!/usr/bin/env python3
"""med.py REPORT.csv: for the phrases with hits of a peers report, the median over cycles of
each engine's ns_per_query and cpu_ns_per_query, the per-query snii/lucene ratios, and the
median of those ratios (wall and thread CPU), with the 16th and 17th queries."""
import csv, statistics, sys

m = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] != "phrase" or int(r["hits"]) == 0:
        continue
    m.setdefault((int(r["query_id"]), r["query"]), {}).setdefault(r["engine"], []).append(
        (float(r["ns_per_query"]), float(r["cpu_ns_per_query"])))
for col, name in ((0, "wall"), (1, "cpu")):
    a = sorted((statistics.median(x[col] for x in v["snii"]) / statistics.median(x[col] for x in v["lucene"]), k)
               for k, v in m.items())
    print(f"{name}: {len(a)} phrases, median {statistics.median(x[0] for x in a):.3f}; "
          f"16th {a[15][0]:.3f} {a[15][1][1]!r}, 17th {a[16][0]:.3f} {a[16][1][1]!r}")
    for r, k in a:
        print(f"  {k[0]:3d} {r:.3f} {k[1]}")
