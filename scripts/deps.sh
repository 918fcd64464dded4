#!/usr/bin/env bash
# Installs the Debian packages Aji needs, and only those that are missing, so
# a second `make run` or `make test` costs one dpkg-query and no network.
#
#   scripts/deps.sh run    packages needed to build and open the desktop app
#   scripts/deps.sh test   those plus what the tests drive: GNU Go, Xvfb,
#                          ImageMagick and xdotool for the screenshot check,
#                          Chromium to open `aji report`'s page headless
set -euo pipefail

# Fyne's GLFW driver links against these (see DESIGN.md, "Toolchain facts");
# libgl1-mesa-dri gives the software OpenGL that Xvfb renders with.
run_pkgs=(gcc libc6-dev libgl1-mesa-dev libgl1-mesa-dri libx11-dev libxcursor-dev libxrandr-dev
	libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev)
test_pkgs=(gnugo xvfb xauth imagemagick xdotool chromium)
# Node and npm run Sabaki's SGF parser in the review tests. They are wanted as
# commands, not as Debian packages: a machine with NodeSource's nodejs (which
# carries npm) must not get Debian's npm on top of it.
if [[ ${1:-} == test ]] && ! { command -v node && command -v npm; } >/dev/null; then
	test_pkgs+=(nodejs npm)
fi

case "${1:-}" in
run) want=("${run_pkgs[@]}") ;;
test) want=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
*)
	echo "usage: $0 run|test" >&2
	exit 2
	;;
esac

missing=()
for p in "${want[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if ((${#missing[@]})); then
	echo "deps: installing ${missing[*]}" >&2
	sudo=()
	if [[ $(id -u) -ne 0 ]]; then
		sudo=(sudo)
	fi
	"${sudo[@]}" apt-get update -q
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Go itself is not a Debian package here: Debian 12 ships 1.19 and Aji needs
# the version go.mod names.
need=$(awk '$1 == "go" { print $2; exit }' "$(dirname "$0")/../go.mod")
if ! command -v go >/dev/null; then
	echo "deps: Go $need or newer is required: https://go.dev/dl/" >&2
	exit 1
fi
have=$(go env GOVERSION | sed 's/^go//')
if [[ $(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1) != "$need" ]]; then
	echo "deps: Go $need or newer is required, found $have: https://go.dev/dl/" >&2
	exit 1
fi
