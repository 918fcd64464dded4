#!/usr/bin/env bash
# Starts the real desktop app under Xvfb, waits for its window and its first
# painted board, saves a screenshot and fails unless the screenshot shows a
# board (scripts/checkshot).
#
#   scripts/screenshot.sh [OUT.png] [FILE.sgf]
#
# OUT.png defaults to bin/screenshot.png; without FILE.sgf the app opens its
# embedded sample game. The app shows the position after MOVE moves (default
# 106: mid-game, with the heat map on the empty points and the record's next
# move ringed). With WINDOW_ONLY=1 the saved image is cropped to the app
# window and reduced to a palette, for the README.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin/screenshot.png}
sgf=${2:-}
move=${MOVE:-106}
export LANG=${LANG:-en_US.UTF-8}

mkdir -p bin "$(dirname "$out")"
go build -o bin/aji-app ./app
go build -o bin/checkshot ./scripts/checkshot

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Fresh preferences: the run neither depends on nor adds to the user's
# settings and recent files.
export XDG_CONFIG_HOME=$work/config

# The part that needs the display runs inside xvfb-run. It waits for both
# the window (xdotool) and the app's "first board painted" log line, so the
# shot is never taken of a window that is mapped but still blank.
cat >"$work/inner.sh" <<'INNER'
set -euo pipefail
work=$1 sgf=$2 move=$3
start=$(date +%s%N)
./bin/aji-app -move "$move" ${sgf:+"$sgf"} 2>"$work/app.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT
win=
for _ in $(seq 100); do # 100 x 0.2 s = 20 s
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "screenshot: the app exited early:" >&2
		cat "$work/app.log" >&2
		exit 1
	fi
	if [[ -z $win ]]; then
		win=$(xdotool search --onlyvisible --name '^Aji' 2>/dev/null | head -n1 || true)
		[[ -n $win ]] && echo "screenshot: window mapped after $((($(date +%s%N) - start) / 1000000)) ms"
	fi
	if [[ -n $win ]] && grep -q 'first board painted' "$work/app.log"; then
		break
	fi
	sleep 0.2
done
if [[ -z $win ]] || ! grep -q 'first board painted' "$work/app.log"; then
	echo "screenshot: no painted Aji window after 20 s" >&2
	cat "$work/app.log" >&2
	exit 1
fi
# Xvfb starts the pointer mid-screen, over the board, where the board shows
# its translucent hover stone; park it on the status bar (leaving the window
# does not clear the hover in Fyne). The log line is written while the frame
# is painted; give the buffer swap a moment to reach the X server.
eval "$(xdotool getwindowgeometry --shell "$win")"
xdotool mousemove --window "$win" $((WIDTH - 20)) $((HEIGHT - 10)) || true
sleep 1
import -window root "$work/root.png"
xdotool getwindowgeometry --shell "$win" >"$work/geometry"
cat "$work/app.log" >&2
INNER

xvfb-run -a -s '-screen 0 1280x900x24' bash "$work/inner.sh" "$work" "$sgf" "$move"
./bin/checkshot "$work/root.png"

if [[ ${WINDOW_ONLY:-0} == 1 ]]; then
	# shellcheck disable=SC1091
	. "$work/geometry"
	convert "$work/root.png" -crop "${WIDTH}x${HEIGHT}+${X}+${Y}" +repage \
		-colors 256 -define png:compression-level=9 "$out"
else
	cp "$work/root.png" "$out"
fi
echo "screenshot: saved $out ($(du -k "$out" | cut -f1) KB)"
