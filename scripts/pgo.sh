#!/usr/bin/env bash
# Refreshes cmd/aji/default.pgo, the CPU profile that `go build ./cmd/aji` optimises the binary with
# (profile-guided optimisation, https://go.dev/doc/pgo: hot calls inlined and laid out by the profile).
# The profile is of the tree search, the hot path the issue-22 speed figures measure: one thread
# searching 9x9 and 19x19 from the empty board and from the games in assets/games, through `aji gtp`.
# Run it after changing the search, the playouts or the prior; the figures move by a few percent, not
# more, when it is stale. About a minute on two cores.
#
#   scripts/pgo.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo" && go build -o "$tmp/aji" ./cmd/aji)
# profile NAME PLAYOUTS: runs the GTP commands on stdin, one thread, into $tmp/NAME.pprof.
profile() {
	"$tmp/aji" gtp --threads 1 --playouts "$2" --cpuprofile "$tmp/$1.pprof" >/dev/null
}
genmoves() { for _ in $(seq "$1"); do printf 'genmove b\ngenmove w\n'; done; }
games=$repo/assets/games
{ printf 'boardsize 9\nclear_board\nkomi 7\n'; genmoves 8; } | profile empty9 10000
{ printf 'loadsgf %s\n' "$games/pro-Minigo-020303.sgf"; genmoves 4; } | profile game9 10000
{ printf 'boardsize 19\nclear_board\nkomi 7.5\n'; genmoves 3; } | profile empty19 4000
{ printf 'loadsgf %s 60\n' "$games/castle-cg048.sgf"; genmoves 1; printf 'loadsgf %s 120\n' "$games/castle-cg048.sgf"; genmoves 1; } | profile game19 4000
go tool pprof -proto "$tmp"/*.pprof >"$repo/cmd/aji/default.pgo"
echo "wrote cmd/aji/default.pgo ($(wc -c <"$repo/cmd/aji/default.pgo") bytes)"
