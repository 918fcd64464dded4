#!/bin/bash
# cgs.sh BIN [N]: callgrind's counts of a whole 9x9 genmove at N playouts (default 5,000), one thread:
# instructions, L1d misses and L2 misses (the last level simulated as a 512 KB L2), in millions.
# Instruction counts repeat from run to run where this machine's timings vary by ±10%, so they rank
# changes that save a few percent of instructions; changes in cache or TLB misses need timings (pps.sh).
b=$1; n=${2:-5000}
out=$(mktemp)
printf 'boardsize 9\nclear_board\nkomi 7\ngenmove b\nquit\n' | GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 \
	valgrind --tool=callgrind --cache-sim=yes --LL=524288,8,64 --callgrind-out-file=$out $b gtp --threads 1 --playouts $n >/dev/null 2>&1
callgrind_annotate $out >$out.txt
grep -m1 "PROGRAM TOTALS" $out.txt | tr -d , | awk '{printf "Ir %.1fM  L1d miss %.2fM  L2 miss %.3fM\n", $1/1e6, ($9+$11)/1e6, ($15+$17)/1e6}'
echo "per function: $out.txt"
rm -f $out
