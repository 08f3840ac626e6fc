#!/bin/bash
# cg.sh PEERS SEG QFILE ID R1 R2: per-function exclusive instructions of one query per
# round, (callgrind at R2 rounds - at R1 rounds) / (R2 - R1); INCL=yes for inclusive
P=$1; SEG=$2; Q=$3; I=$4; R1=$5; R2=$6
dir=$(mktemp -d)
for R in $R1 $R2; do
  GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$dir/cg.$R.out" \
    "$P" profile -seg "$SEG" -queries "$Q" -ids "$I" -rounds $R -cpuprofile "" >/dev/null 2>&1
  callgrind_annotate --inclusive=${INCL:-no} --threshold=100 --auto=no "$dir/cg.$R.out" 2>/dev/null |
    grep -E '^ *[0-9,]+ ' | sed 's/(.*%)//' | awk '{gsub(",","",$1); print $1, $2}' > "$dir/cg.$R.txt"
done
python3 - "$dir" $R1 $R2 <<'PY'
import sys
d,r1,r2=sys.argv[1],int(sys.argv[2]),int(sys.argv[3])
def load(r):
    m={}
    for l in open(f"{d}/cg.{r}.txt"):
        a,b=l.split(None,1); b=b.strip()
        b=b.split(":",1)[-1] if ":" in b else b
        b=b.replace("github.com/snii-go/snii/","").split(" [")[0]
        m[b]=m.get(b,0)+int(a)
    return m
a,b=load(r1),load(r2)
tot=(b.get("PROGRAM",0)-a.get("PROGRAM",0))/(r2-r1)
print(f"total per round {tot:,.0f}")
rows=sorted(((b.get(k,0)-a.get(k,0))/(r2-r1),k) for k in set(a)|set(b) if k!="PROGRAM")
for v,k in reversed(rows[-40:]):
    print(f"{v:12,.0f} {100*v/tot:5.1f}% {k}")
PY
rm -rf "$dir"
