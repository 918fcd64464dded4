# traj.py AJI GAME.sgf...: Aji's own win rate (10,000 playouts, aji-search) at each of its moves in lost games
import re,subprocess,sys
aji=sys.argv[1]
def cmd(p,c):
    p.stdin.write(c+'\n'); p.stdin.flush(); out=[]
    while True:
        l=p.stdout.readline()
        if l.strip()=='' and out: break
        if l.strip()!='': out.append(l.strip())
    return ' '.join(out)
for f in sys.argv[2:]:
    s=open(f).read()
    col='B' if 'plays black' in s else 'W'
    res=re.search(r'RE\[([^]]*)\]',s).group(1)
    if res.startswith(col+'+'): continue
    p=subprocess.Popen([aji,'gtp','--playouts','10000','--seed','7'],stdin=subprocess.PIPE,stdout=subprocess.PIPE,stderr=subprocess.DEVNULL,text=True)
    cmd(p,'boardsize 9'); cmd(p,'clear_board'); cmd(p,'komi 7')
    out=[]
    for i,(c,m) in enumerate(re.findall(r';([BW])\[([a-z]*)\]',s)):
        if c==col:
            t=cmd(p,'aji-search')
            w=re.search(r'win rate ([0-9.]+)%',t)
            out.append('%d:%s%s' % (i+1, ('%.0f'%float(w.group(1))) if w else '?', '' ))
        v='pass' if m=='' else 'ABCDEFGHJ'[ord(m[0])-97]+str(9-(ord(m[1])-97))
        out.append(v)
        cmd(p,'play %s %s'%(c,v))
    p.stdin.write('quit\n'); p.stdin.flush()
    print(f.split('/')[-1], col, res, ' '.join(out), flush=True)
