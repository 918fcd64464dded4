#!/bin/bash
# pairs.sh A B ROUNDS [N]: pps.sh (9x9, N playouts, default 30,000) of two binaries alternating ROUNDS
# times; prints each pair and the median, least and greatest ratio B/A. On a machine whose speed drifts
# from minute to minute, the ratio within a pair is what means something.
a=$1; b=$2; n=$3; m=${4:-30000}
here=$(dirname "$0")
r=()
for i in $(seq $n); do
	x=$(bash $here/pps.sh $a $m); y=$(bash $here/pps.sh $b $m)
	echo "$x $y"; r+=($(python3 -c "print($y/$x)"))
done
echo "${r[*]}" | python3 -c "import statistics,sys; r=[float(x) for x in sys.stdin.read().split()]; print('median ratio', round(statistics.median(r),3), 'min', round(min(r),3), 'max', round(max(r),3))"
