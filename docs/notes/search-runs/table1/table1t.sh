#!/bin/bash
# Table I at equal time: the baseline and CFG in both places, half a second a move.
cd /work/runs/s5
for cfg in "mm pattern" "cfg cfg-small"; do
  set -- $cfg
  d=t1t-$1-$2; mkdir -p $d
  nice -n 5 ./aji-t1 match --size 9 --komi 7 --games 20 --predictor $1 --policy $2 --time 0.5 \
    --opponent "/usr/games/gnugo --mode gtp --level 10" --out $d --json > $d.json 2> $d.log
done
