# contin.py GAME.sgf SEED [AJI_COLOR [aji gtp flags]]: plays on from the last position of a record and
# prints who was to move, the moves and GNU Go's count (was a resignation, or a count, right?). GNU Go
# level 10 plays both sides; with AJI_COLOR, Aji (the binary $AJI, default aji) plays that colour, and
# the record's final pass is dropped first, so that Aji chooses again where it passed.
import os,re,subprocess,sys,tempfile
f,seed=sys.argv[1],sys.argv[2]
ajic=sys.argv[3] if len(sys.argv)>3 else None
def eng(args):
    return subprocess.Popen(args,stdin=subprocess.PIPE,stdout=subprocess.PIPE,stderr=subprocess.DEVNULL,text=True)
def cmd(p,c):
    p.stdin.write(c+'\n'); p.stdin.flush(); out=[]
    while True:
        l=p.stdout.readline()
        if l.strip()=='' and out: break
        if l.strip()!='': out.append(l.strip())
    return ' '.join(out)
g=eng(['/usr/games/gnugo','--mode','gtp','--level','10','--chinese-rules','--seed',seed])
players={'black':g,'white':g}
if ajic:
    s=re.sub(r'\s*;[BW]\[\]\s*\)\s*$',')',open(f).read())
    tmp=tempfile.NamedTemporaryFile('w',suffix='.sgf',delete=False); tmp.write(s); tmp.close(); f=tmp.name
    a=eng([os.environ.get('AJI','aji'),'gtp','--threads','1','--seed',seed]+sys.argv[4:])
    cmd(a,'loadsgf '+f); cmd(a,'komi 7'); players[ajic]=a
r=cmd(g,'loadsgf '+f); tomove='black' if 'black' in r else 'white'
cmd(g,'komi 7')
col=tomove; passes=0; moves=[]
while passes<2 and len(moves)<200:
    m=cmd(players[col],'genmove '+col)[2:]
    moves.append(m)
    if m.lower()=='resign': break
    for p in set(players.values())-{players[col]}: cmd(p,'play %s %s'%(col,m))
    passes = passes+1 if m.lower()=='pass' else 0
    col='white' if col=='black' else 'black'
print(sys.argv[1], 'next', tomove, ' '.join(moves), cmd(g,'final_score'))
