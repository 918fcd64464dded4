#!/bin/bash
# device check for issue 22 (tenth session): the default search against GNU Go level 10 on 9x9 at
# 10,000 playouts a move, many games at once on the 16 cores. Run from the repository root with .dev/
# holding a static aji and GNU Go with its libraries (see ../README.md, "Tenth session").
# Args: GAMES PARALLEL SECONDS SEED NAME [aji flags]
D=$(pwd)/.dev
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
GNUGO="$D/lib/ld-linux-x86-64.so.2 --library-path $D/lib $D/gnugo"
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|MHz"; } > "$OUT/info10.txt" 2>&1
echo "== match $(date +%T)"
cd /tmp && timeout -s INT "$3" "$D/aji" match --size 9 --komi 7 --games "$1" --playouts 10000 --seed "$4" \
  --parallel "$2" --opponent "$GNUGO --mode gtp --level 10" --referee "$GNUGO --mode gtp --chinese-rules" \
  "${@:6}" --out "/tmp/$5" --json > "$OUT/$5.json" 2> "$OUT/$5.err"
tail -3 "$OUT/$5.err"; head -12 "$OUT/$5.json"
tar -cJf "$OUT/$5.tar.xz" -C /tmp "$5"
echo "== done $(date +%T)"
