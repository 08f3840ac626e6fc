import sys,re
def load(p):
    d={}
    for l in open(p):
        if l.startswith('| `'):
            f=[x.strip() for x in l.strip().strip('|').split('|')]
            d[f[0]]=f
    return d
a=load(sys.argv[1]); b=load(sys.argv[2])
print("%-42s %6s %8s %8s %8s %8s %6s %6s"%("query","hits","mainµs","fpµs","mainLuc","fpLuc","mainR","fpR"))
for q in sorted(a,key=lambda q:-float(a[q][4])):
    x=a[q];y=b[q]
    print("%-42s %6s %8s %8s %8s %8s %6s %6s"%(q,x[1],x[2],y[2],x[3],y[3],x[4],y[4]))
