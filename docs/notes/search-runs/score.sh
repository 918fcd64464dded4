#!/bin/bash
# score.sh DIR: Aji's wins, draws and losses in a match folder (the side Aji played is in the root comment)
for f in $1/*.sgf; do side=$(grep -o ') plays [a-z]*' $f | head -1 | awk '{print $3}'); r=$(grep -o 'RE\[[^]]*\]' $f | head -1|cut -c4-5); if [ "$side" = black ]; then [ "$r" = "B+" ] && echo W || { [ "$r" = "0]" ] && echo D || echo L; }; else [ "$r" = "W+" ] && echo W || { [ "$r" = "0]" ] && echo D || echo L; }; fi; done | sort | uniq -c | tr '\n' ' '; echo
