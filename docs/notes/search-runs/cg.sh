#!/bin/bash
# cg.sh [N]: callgrind's counts per prediction of BenchmarkPredictSearch9 (analysis/predict/fbt): the
# fbt prior on the positions a 9x9 search expands, N predictions (default 1,000), counted inside them
# only. Run from the repository root.
n=${1:-1000}
bin=$(mktemp); out=$(mktemp)
go test -c -o $bin ./analysis/predict/fbt || exit 1
(cd analysis/predict/fbt && GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --cache-sim=yes \
	--LL=524288,8,64 --toggle-collect='*fbt.predictAt' --callgrind-out-file=$out $bin -test.run XXX \
	-test.bench PredictSearch9 -test.benchtime ${n}x >/dev/null 2>&1)
callgrind_annotate $out >$out.txt
grep -m1 "PROGRAM TOTALS" $out.txt | tr -d , | awk -v n=$n '{printf "per prediction: instructions %.0f  L1d misses %.0f  L2 misses %.0f\n", $1/n, ($9+$11)/n, ($15+$17)/n}'
echo "per function: $out.txt"
rm -f $bin $out
