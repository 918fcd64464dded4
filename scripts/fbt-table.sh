#!/usr/bin/env bash
# Xiao's Tables 4.1-4.3 and Figure 4.4 on our data (models/README.md, "fbt"): ten `aji train fbt` runs
# side by side, one core each (so the sampled and full gradients are timed alike), then each best model
# evaluated on every validation game. It needs ten free cores and ~30 GB; the figures in models/README.md
# came from a 16-core machine in 6.5 minutes.
#
#   scripts/fbt-table.sh [MAXGAMES PERGAME PASSES SECONDS]     (default: 20000 8 60 400)
#
# writes RUN.log (one JSON line per pass), RUN.eval.json and RUN.ajim for each run in the current folder.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA:-$repo/../shared/data}
games=${1:-20000} per=${2:-8} passes=${3:-60} secs=${4:-400}
aji=$(mktemp -d)/aji
(cd "$repo" && go build -o "$aji" ./cmd/aji)
train() {
	local name=$1
	shift
	GOMAXPROCS=1 timeout -s INT "$secs" "$aji" train fbt --games "$data/games-train.tar.xz" \
		--validation "$data/games-validation.tar.xz" --validation-games 200 --max-games "$games" \
		--positions-per-game "$per" --max-passes "$passes" --out "$name.ajim" --log "$name.log" "$@" \
		>"$name.out" 2>"$name.err" || echo "$name: exit $?"
}
train small-k0 --small --k 0 &
train small-k5 --small --k 5 &
train small-k10 --small --k 10 &
train large-k0 --k 0 &
train large-k5 --k 5 &
train large-k10 --k 10 &
for m in 5 10 20 30; do train "small-k5-s$m" --small --k 5 --samples "$m" & done
wait
for f in *.ajim; do
	GOMAXPROCS=1 "$aji" eval --predictor fbt --model "$f" --games "$data/games-validation.tar.xz" --workers 1 \
		--json >"${f%.ajim}.eval.json" 2>/dev/null &
done
wait
