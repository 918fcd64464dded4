#!/bin/bash
set -x
prev=/tmp/fbt32/fbt-base.ajim
for s in 2 3 4 5 6; do
  GOMEMLIMIT=14500MiB /tmp/aji train fbt --games /work/shared/data/games-train.tar.xz --validation /work/shared/data/games-validation.tar.xz \
    --validation-games 600 --positions-per-game 32 --positions-seed $s --workers 8 --init-from $prev --out r$s.ajim \
    --max-passes 6 --patience 2 --log r$s.log > r$s.out 2> r$s.err || exit 1
  prev=r$s.ajim
done
