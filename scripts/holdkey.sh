#!/usr/bin/env bash
# Starts the real desktop app under Xvfb on a long game, presses the Right
# arrow at about 30 Hz through the game and Left back again for DURATION
# seconds (default 60), samples the app's resident memory (VmRSS) every
# second, and fails if memory keeps growing: if the largest sample of the
# last 20 s exceeds the largest of the first 20 s of the last minute by more
# than 50 MB (with the default 60 s: the first 20 s of the run). Fyne keeps
# text textures and retired objects for a minute, so memory climbs for about
# that long before it levels off; a longer run is judged on its last minute.
# It also fails if the app did not navigate (the keys never arrived), so a
# pass is never vacuous.
#
#   scripts/holdkey.sh [FILE.sgf]
#
# Without FILE.sgf it takes a 304-move professional game from
# ../shared/data/games-validation.tar.xz. Prints the RSS figures and the
# app's navigation-to-heat-map timing lines; LOG=FILE keeps the app's log.
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=${LANG:-en_US.UTF-8}
duration=${DURATION:-60}
rate=${RATE:-30}
# Margin allowed between the first and last 20 s peaks, in kB.
growth_kb=$((50 * 1024))

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Fresh preferences: the run neither depends on nor adds to the user's
# settings and recent files.
export XDG_CONFIG_HOME=$work/config

sgf=${1:-}
if [[ -z $sgf ]]; then
	archive=../shared/data/games-validation.tar.xz
	member=games-validation/Alum-02-15.sgf
	if [[ ! -f $archive ]]; then
		echo "holdkey: $archive is absent; pass a game record of ~300 moves" >&2
		exit 2
	fi
	tar -xJf "$archive" -C "$work" "$member"
	sgf=$work/$member
fi

mkdir -p bin
go build -o bin/aji-app ./app

cat >"$work/inner.sh" <<'INNER'
set -euo pipefail
work=$1 sgf=$2 duration=$3 rate=$4
./bin/aji-app -move 0 "$sgf" 2>"$work/app.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT
win=
for _ in $(seq 100); do
	kill -0 "$pid" 2>/dev/null || { echo "holdkey: the app exited early" >&2; cat "$work/app.log" >&2; exit 1; }
	[[ -z $win ]] && win=$(xdotool search --onlyvisible --name '^Aji' 2>/dev/null | head -n1 || true)
	[[ -n $win ]] && grep -q 'first board painted' "$work/app.log" && break
	sleep 0.2
done
[[ -n $win ]] || { echo "holdkey: no Aji window" >&2; exit 1; }
# Xvfb has no window manager: give the window the keyboard explicitly.
xdotool windowfocus --sync "$win"

# RSS sampler: one line "seconds kB" per second.
(
	for s in $(seq 0 "$duration"); do
		awk -v s="$s" '/^VmRSS:/ { print s, $2 }' "/proc/$pid/status" || exit 0
		sleep 1
	done
) >"$work/rss" &
sampler=$!

# Right through the game, then Left back, until the time is up. Each burst
# is ~10 s of presses so the direction changes several times.
delay=$((1000 / rate))
end=$((SECONDS + duration))
key=Right
while ((SECONDS < end)); do
	n=$(((end - SECONDS) * rate))
	n=$((n < 10 * rate ? n : 10 * rate))
	((n > 0)) || break
	xdotool key --delay "$delay" --repeat "$n" "$key"
	[[ $key == Right ]] && key=Left || key=Right
done
wait "$sampler" || true
INNER

xvfb-run -a -s '-screen 0 1280x900x24' bash "$work/inner.sh" "$work" "$sgf" "$duration" "$rate"

[[ -n ${LOG:-} ]] && cp "$work/app.log" "$LOG"
grep -E 'first board painted|navigation to heat map|level=(WARN|ERROR)' "$work/app.log" || true
navs=$(grep -c 'navigation to heat map' "$work/app.log" || true)
if ((navs == 0)); then
	echo "holdkey: the app logged no navigation: the keys did not reach it" >&2
	cat "$work/app.log" >&2
	exit 1
fi

awk -v span="$duration" -v growth="$growth_kb" -v navs="$navs" '
	{ t[NR] = $1; kb[NR] = $2 }
	END {
		if (NR < span / 2) { print "holdkey: only " NR " RSS samples" > "/dev/stderr"; exit 1 }
		lo = hi = kb[1]
		from = t[NR] > 60 ? t[NR] - 60 : 0
		for (i = 1; i <= NR; i++) {
			if (kb[i] < lo) lo = kb[i]
			if (kb[i] > hi) hi = kb[i]
			if (t[i] >= from && t[i] < from + 20 && kb[i] > first) first = kb[i]
			if (t[i] >= t[NR] - 20 && kb[i] > last) last = kb[i]
		}
		printf "holdkey: %d samples over %d s, %d x 50 navigations logged\n", NR, t[NR], navs
		line = "holdkey: RSS MB every 5 s:"
		for (i = 1; i <= NR; i += 5) line = line sprintf(" %.0f", kb[i] / 1024)
		print line
		printf "holdkey: RSS min %.1f MB, max %.1f MB, final %.1f MB; peak %d-%d s %.1f MB, last 20 s %.1f MB\n",
			lo / 1024, hi / 1024, kb[NR] / 1024, from, from + 20, first / 1024, last / 1024
		if (last > first + growth) {
			printf "holdkey: memory keeps growing: last 20 s peak exceeds the earlier one by %.1f MB (limit %d MB)\n",
				(last - first) / 1024, growth / 1024 > "/dev/stderr"
			exit 1
		}
		print "holdkey: ok, memory stays bounded"
	}' "$work/rss"
