#!/bin/bash
# cmp.sh N binaries...: the same 12 genmoves on 9x9 at N playouts; prints moves and user CPU
n=$1; shift
cmds=$(printf 'boardsize 9\nclear_board\nkomi 7\n'; for i in 1 2 3 4 5 6; do printf 'genmove b\ngenmove w\n'; done; printf 'quit\n')
for b in "$@"; do echo "$cmds" | /usr/bin/time -f "%U" $b gtp --threads 1 --playouts $n 2>&1 | tr -d '\n'; echo; done
