#!/bin/bash
# Graf & Platzner's Table I on 9x9: four configurations against GNU Go 3.8 level 10, 1,000 playouts a move.
cd /work/runs/s5
for cfg in "mm pattern" "mm cfg-small" "cfg pattern" "cfg cfg-small"; do
  set -- $cfg
  d=t1-$1-$2; mkdir -p $d
  nice -n 5 ./aji-t1 match --size 9 --komi 7 --games 20 --predictor $1 --policy $2 --playouts 1000 \
    --opponent "/usr/games/gnugo --mode gtp --level 10" --out $d --json > $d.json 2> $d.log
done
