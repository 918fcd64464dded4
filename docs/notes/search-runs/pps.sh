#!/bin/bash
# pps.sh BIN N [flags]: playouts per CPU-second as aji bench search measures: CPU of N playouts less CPU
# of 500, from the empty board of size $SIZE (default 9)
b=$1; n=$2; shift 2
size=${SIZE:-9}
cpu() { local m=$1; shift; printf 'boardsize %s\nclear_board\nkomi 7\ngenmove b\nquit\n' "$size" | /usr/bin/time -f "%U %S" $b gtp --threads 1 --playouts $m "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1+$2}'; }
a=$(cpu $n "$@"); z=$(cpu 500 "$@")
python3 -c "print(round(($n-500)/($a-$z)))"
