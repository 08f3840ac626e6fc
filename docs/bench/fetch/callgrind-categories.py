import sys,re,subprocess
def cats(f):
    out=subprocess.run(['callgrind_annotate','--threshold=100',f],capture_output=True,text=True).stdout
    c={}
    tot=0
    lines=out.splitlines()
    i=[j for j,l in enumerate(lines) if 'file:function' in l][0]
    lines=lines[i+2:]
    for l in lines:
        if l.startswith('--') or l.strip()=='' : break
        m=re.match(r'\s*([\d,]+) \([^)]*\)\s+(\S+)',l)
        if not m or 'PROGRAM TOTALS' in l: continue
        n=int(m.group(1).replace(',','')); fn=m.group(2)
        if 'klauspost/compress' in fn: k='zstd decode (klauspost)'
        elif 'SplitStoreBlock' in fn or 'format.(*reader).uvarint' in fn or 'bitpack.ReadUvarint' in fn: k='SplitStoreBlock'
        elif 'crc32' in fn: k='crc32c'
        elif 'fnv' in fn or 'main.main' in fn: k='driver (fnv hash)'
        elif 'runtime' in fn or 'internal/runtime' in fn: k='runtime (alloc, gc, maps)'
        else: k='other'
        c[k]=c.get(k,0)+n; tot+=n
    return c,tot
for f in sys.argv[1:]:
    c,t=cats(f)
    print(f, t)
    for k,v in sorted(c.items(), key=lambda x:-x[1]): print(f'  {k:30s} {v:>12,d} {100*v/t:5.1f}%')
