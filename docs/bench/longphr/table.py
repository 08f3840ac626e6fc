#!/usr/bin/env python3
# table.py DIR: the per-query table of longphr.md from DIR/{base4,after4,base16,after16}.txt
# (lines "id Ir(1) Ir(5) per-round"; an id listed twice: its first line).
import sys
names = ["traceback most recent call last", "no such file or directory",
         "modulenotfounderror no module named", "returncode 0 returncode", "thought let me",
         "i need to", "the logic is", "path error an existing", "place where",
         "returncode output header fromstring bytes", "import nullcontext from io",
         "user username unq so constraint", "getattr called for iobase closed", "only if the",
         "bash nl ba django db migrations", "db migrations", "example here are some thoughts",
         "response example here are some", "the server"]
d = sys.argv[1]
def load(f):
    m = {}
    try:
        for l in open(f"{d}/{f}.txt"):
            a = l.split()
            if len(a) == 4 and int(a[0]) not in m:
                m[int(a[0])] = int(a[3])
    except FileNotFoundError:
        pass
    return m
b4, a4, b16, a16 = load("base4"), load("after4"), load("base16"), load("after16")
def cell(b, a, i):
    if i not in b or i not in a:
        return "–", "–", "–"
    return f"{b[i]:,}", f"{a[i]:,}", f"{100*(a[i]-b[i])/b[i]:+.1f}%"
print("| # | phrase | ×4 base | ×4 after | ×4 change | ×16 base | ×16 after | ×16 change |")
print("|---|---|---|---|---|---|---|---|")
for i in sorted(set(b4) | set(b16)):
    print(f"| {i} | `{names[i]}` | " + " | ".join(cell(b4, a4, i) + cell(b16, a16, i)) + " |")
for tag, b, a in (("×4", b4, a4), ("×16", b16, a16)):
    ks = [i for i in b if i in a]
    if ks:
        sb, sa = sum(b[i] for i in ks), sum(a[i] for i in ks)
        print(f"\n{tag}: sum over {len(ks)} queries {sb:,} → {sa:,} ({100*(sa-sb)/sb:+.1f}%)")
