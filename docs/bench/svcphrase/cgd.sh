#!/bin/bash
# cgd.sh A B R1 R2 [yes]: the per-function instructions of one query per round,
# (B - A) / (R2 - R1), from two callgrind outputs A and B of `peers profile` at
# R1 and R2 rounds (--callgrind-out-file); a fifth argument yes for inclusive
# costs. Writes A.txt and B.txt beside them.
for f in $1 $2; do callgrind_annotate --inclusive=${5:-no} --threshold=100 --auto=no $f 2>/dev/null | grep -E '^ *[0-9,]+ ' | sed 's/(.*%)//' | awk '{gsub(",","",$1); print $1, $2}' > $f.txt; done
python3 - $1.txt $2.txt $3 $4 <<'PY'
import sys
fa,fb,r1,r2=sys.argv[1],sys.argv[2],int(sys.argv[3]),int(sys.argv[4])
def load(f):
    m={}
    for l in open(f):
        a,b=l.split(None,1); b=b.strip()
        b=b.split(":",1)[-1] if ":" in b else b
        b=b.replace("github.com/snii-go/snii/","").split(" [")[0]
        m[b]=m.get(b,0)+int(a)
    return m
a,b=load(fa),load(fb)
tot=(b.get("PROGRAM",0)-a.get("PROGRAM",0))/(r2-r1)
print(f"total per round {tot:,.0f}")
rows=sorted(((b.get(k,0)-a.get(k,0))/(r2-r1),k) for k in set(a)|set(b) if k!="PROGRAM")
for v,k in reversed(rows[-45:]):
    print(f"{v:12,.0f} {100*v/tot:5.1f}% {k}")
PY
