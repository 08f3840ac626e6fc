import sys,collections,statistics
d=collections.defaultdict(lambda: collections.defaultdict(list))
hits={}
for l in open(sys.argv[1]):
    side,q,n,k,h,t=l.rstrip('\n').split('\t')
    d[q][side].append(float(t)); hits[q]=n
rs=[]
print("%-42s %6s %9s %9s %6s %9s %9s"%("query","hits","main min","fp min","ratio","main med","fp med"))
for q in d:
    a=min(d[q]['main']); b=min(d[q]['fetchpar'])
    am=statistics.median(d[q]['main']); bm=statistics.median(d[q]['fetchpar'])
    rs.append(b/a)
    print("%-42s %6s %9.1f %9.1f %6.2f %9.1f %9.1f"%(q,hits[q],a,b,b/a,am,bm))
print("median ratio of mins fetchpar/main: %.2f"%statistics.median(rs))
