# table.py QUERIES PROF-TSV BASE4 AFTER4 BASE16 AFTER16: the per-query table
# of phrase16b.md from ir.sh outputs (hits from the profile's tsv).
import sys,statistics
names=[l.split('\t')[2].strip() for l in open(sys.argv[1]) if l.startswith('phrase\t')]
hits={}
for l in open(sys.argv[2]):
    f=l.rstrip('\n').split('\t'); hits[f[0]]=int(f[1])
def load(p):
    d={}
    try:
        for l in open(p):
            f=l.split()
            if len(f)==4: d[int(f[0])]=int(f[3])
    except FileNotFoundError: pass
    return d
b4,a4,b16,a16=[load(f) for f in sys.argv[3:7]]
print('| # | phrase | hits ×16 | ×4 base | ×4 after | ×4 change | ×16 base | ×16 after | ×16 change |')
print('|---|---|---|---|---|---|---|---|---|')
ch4=[];ch16=[];s=[0,0,0,0]
for i in range(32):
    def c(b,a,lst):
        if i not in b or i not in a: return '?'
        if b[i]<100000: return '–'
        v=a[i]/b[i]-1; lst.append(v); return f'{100*v:+.1f}%'
    r4=c(b4,a4,ch4); r16=c(b16,a16,ch16)
    if i in b4 and i in a4 and b4[i]>=100000: s[0]+=b4[i]; s[1]+=a4[i]
    if i in b16 and i in a16 and b16[i]>=100000: s[2]+=b16[i]; s[3]+=a16[i]
    fmt=lambda d: f'{d[i]:,}' if i in d else '?'
    print(f'| {i} | `{names[i]}` | {hits.get(names[i],"?"):,} | {fmt(b4)} | {fmt(a4)} | {r4} | {fmt(b16)} | {fmt(a16)} | {r16} |')
print()
if ch4: print(f'×4: n={len(ch4)} median change {100*statistics.median(ch4):+.1f}%, min {100*min(ch4):+.1f}%, max {100*max(ch4):+.1f}%, sum {s[0]:,} → {s[1]:,} ({100*(s[1]/s[0]-1):+.1f}%)')
if ch16: print(f'×16: n={len(ch16)} median change {100*statistics.median(ch16):+.1f}%, min {100*min(ch16):+.1f}%, max {100*max(ch16):+.1f}%, sum {s[2]:,} → {s[3]:,} ({100*(s[3]/s[2]-1):+.1f}%)')
