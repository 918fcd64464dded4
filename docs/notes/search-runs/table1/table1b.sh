#!/bin/bash
# wait for table1.sh, then take each configuration to 40 games
while pgrep -f table1.sh > /dev/null; do sleep 10; done
cd /work/runs/s5
for cfg in "mm pattern" "mm cfg-small" "cfg pattern" "cfg cfg-small"; do
  set -- $cfg
  d=t1-$1-$2
  nice -n 5 ./aji-t1 match --size 9 --komi 7 --games 40 --resume --predictor $1 --policy $2 --playouts 1000 \
    --opponent "/usr/games/gnugo --mode gtp --level 10" --out $d --json > $d.json 2> $d.log
done
