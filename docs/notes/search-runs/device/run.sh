#!/bin/bash
# device check for issue 22: thread scaling (aji bench search) and the 16-thread search's strength at
# equal playouts against one thread. Args: P9 P19 THREADS MATCH_SECONDS MATCH_PLAYOUTS PARALLEL
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
GNUGO="$D/lib/ld-linux-x86-64.so.2 --library-path $D/lib $D/gnugo"
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|MHz"; uname -r; } > "$OUT/info.txt" 2>&1
cat "$OUT/info.txt"
echo "== bench $(date +%T)"
"$D/aji" bench search --playouts9 "$1" --playouts19 "$2" --threads "$3" 2>&1 | tee "$OUT/bench.txt"
echo "== match $(date +%T)"
cd /tmp && timeout -s INT "$4" "$D/aji" match --size 9 --komi 7 --games 400 --threads 16 --playouts "$5" \
  --parallel "$6" --opponent "$D/aji gtp --threads 1 --playouts $5" --referee "$GNUGO --mode gtp --chinese-rules" \
  --out /tmp/t16 --json > "$OUT/t16.json" 2> "$OUT/t16.err"
tail -3 "$OUT/t16.err"; cat "$OUT/t16.json" | head -12
tar -cJf "$OUT/t16.tar.xz" -C /tmp t16
echo "== done $(date +%T)"
