# playon.py GAME.sgf AJI_COLOR SEED [aji gtp flags]: drops the record's final pass, then Aji (AJI_COLOR;
# the binary $AJI, default aji) and GNU Go level 10 play on from there; prints GNU Go's count.
import os,subprocess,sys,re,tempfile
f,ajic,seed=sys.argv[1],sys.argv[2],sys.argv[3]
s=open(f).read()
s=re.sub(r'\s*;[BW]\[\]\s*\)\s*$',')',s)
tmp=tempfile.NamedTemporaryFile('w',suffix='.sgf',delete=False); tmp.write(s); tmp.close()
def eng(args):
    return subprocess.Popen(args,stdin=subprocess.PIPE,stdout=subprocess.PIPE,stderr=subprocess.DEVNULL,text=True)
g=eng(['/usr/games/gnugo','--mode','gtp','--level','10','--chinese-rules','--seed',seed])
a=eng([os.environ.get('AJI','aji'),'gtp','--threads','1','--seed',seed]+sys.argv[4:])
def cmd(p,c):
    p.stdin.write(c+'\n'); p.stdin.flush(); out=[]
    while True:
        l=p.stdout.readline()
        if l.strip()=='' and out: break
        if l.strip()!='': out.append(l.strip())
    return ' '.join(out)
r=cmd(g,'loadsgf '+tmp.name); col='black' if 'black' in r else 'white'
cmd(a,'loadsgf '+tmp.name); cmd(g,'komi 7'); cmd(a,'komi 7')
passes=0;n=0;moves=[]
while passes<2 and n<200:
    p,o=(a,g) if col==ajic else (g,a)
    m=cmd(p,'genmove '+col)[2:]
    if m.lower()=='resign': print(f,'resign',col); break
    cmd(o,'play %s %s'%(col,m)); moves.append(m)
    passes=passes+1 if m.lower()=='pass' else 0
    col='white' if col=='black' else 'black'; n+=1
print(f,'aji',ajic,'moves',' '.join(moves),'->',cmd(g,'final_score'))
