#!/usr/bin/env python3
"""ab.py ROUNDS: main's binary and the branch's, interleaved (order alternating
each round), on the startup cases: median wall (stdout to a pipe), task-clock
and page faults (perf stat) per binary."""
import subprocess, sys, time, statistics, os
R = int(sys.argv[1]) if len(sys.argv) > 1 else 20
X4, X16, SVC = os.environ["DIR"] + "/x4.snii", os.environ["DIR"] + "/x16.snii", os.environ["SVC"]
cases = [
    ("x4 zero-hit phrase", ["query", X4, '"zzqx nothing here"']),
    ("x4 \"is not defined\" --count", ["query", X4, '"is not defined"', "--count"]),
    ("x4 \"the logic is\" (64 lines)", ["query", X4, '"the logic is"']),
    ("x4 \"is not defined\" (176 lines)", ["query", X4, '"is not defined"']),
    ("x16 zero-hit phrase", ["query", X16, '"zzqx nothing here"']),
    ("x16 \"the logic is\" (256 lines)", ["query", X16, '"the logic is"']),
    ("svc grep 'Connection refused' (0)", ["grep", SVC, "Connection refused"]),
    ("svc grep 'session opened for user [a-z]+' (561)", ["grep", SVC, "session opened for user [a-z]+"]),
]
bins = {"main": os.environ["MAIN"], "branch": os.environ["BRANCH"]}
def once(b, args):
    t0 = time.perf_counter()
    p = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock,page-faults", b] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = (time.perf_counter() - t0) * 1000
    tc = pf = None
    for line in p.stderr.splitlines():
        f = line.split(",")
        if len(f) > 3 and f[2] == "task-clock": tc = float(f[0])
        if len(f) > 3 and f[2] == "page-faults": pf = int(f[0])
    return wall, tc, pf, p.stdout
print(f"rounds {R}; load before {open('/proc/loadavg').read().split()[:3]}")
print(f"{'case':<48} {'main wall':>9} {'br wall':>8} {'m/b':>5} {'main cpu':>8} {'br cpu':>7} {'m/b':>5} {'main pf':>7} {'br pf':>6}")
for name, args in cases:
    res = {k: [] for k in bins}
    outs = {}
    for _ in range(3):  # warm-up
        for k, b in bins.items(): outs[k] = once(b, args)[3]
    if outs["main"] != outs["branch"]:
        print(f"{name}: OUTPUT DIFFERS"); continue
    for r in range(R):
        order = list(bins.items()) if r % 2 == 0 else list(reversed(bins.items()))
        for k, b in order:
            res[k].append(once(b, args)[:3])
    med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in res.items()}
    m, b = med["main"], med["branch"]
    print(f"{name:<48} {m[0]:>9.2f} {b[0]:>8.2f} {m[0]/b[0]:>5.2f} {m[1]:>8.2f} {b[1]:>7.2f} {m[1]/b[1]:>5.2f} {m[2]:>7.0f} {b[2]:>6.0f}")
print(f"load after {open('/proc/loadavg').read().split()[:3]}")
