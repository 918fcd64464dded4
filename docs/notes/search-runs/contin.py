# contin.py GAME.sgf SEED: GNU Go level 10 plays on from the last position of a record, both sides,
# and prints who the side to move was and the final score (was a resignation right?).
import subprocess,sys
f=sys.argv[1]; seed=sys.argv[2]
p=subprocess.Popen(['/usr/games/gnugo','--mode','gtp','--level','10','--chinese-rules','--seed',seed],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
def cmd(c):
    p.stdin.write(c+'\n'); p.stdin.flush(); out=[]
    while True:
        l=p.stdout.readline()
        if l.strip()=='' and out: break
        if l.strip()!='': out.append(l.strip())
    return ' '.join(out)
r=cmd('loadsgf '+f); tomove='black' if 'black' in r else 'white'
cmd('komi 7')
col=tomove; passes=0; n=0
while passes<2 and n<200:
    m=cmd('genmove '+col)[2:]
    passes = passes+1 if m.lower()=='pass' else 0
    col='white' if col=='black' else 'black'; n+=1
print(f, 'next', tomove, cmd('final_score'))
