#!/usr/bin/env bash
# Installs (or removes) Aji for one user or system-wide: the `aji` command and
# the desktop app, a desktop entry that puts the app in the desktop's menu and
# opens .sgf files with it, and its icon. The binaries must be built first
# (make install does it).
#
#   scripts/install.sh install PREFIX     default PREFIX: ~/.local
#   scripts/install.sh uninstall PREFIX
#
# Layout under PREFIX:
#   bin/aji, bin/aji-app
#   share/applications/dev.aji.workbench.desktop    (from assets/aji.desktop.in)
#   share/icons/hicolor/256x256/apps/dev.aji.workbench.png
#   share/mime/packages/aji-sgf.xml                 only where the system knows no .sgf type
# The names follow the app ID in FyneApp.toml, as `fyne package` names them.
set -euo pipefail
cd "$(dirname "$0")/.."
action=${1:-}
prefix=${2:-$HOME/.local}
id=dev.aji.workbench

bindir=$prefix/bin
apps=$prefix/share/applications
icons=$prefix/share/icons/hicolor/256x256/apps
mime=$prefix/share/mime

# refresh updates the desktop's caches of PREFIX where the tools exist; a
# desktop without them reads the files directly.
refresh() {
	if command -v update-mime-database >/dev/null && [[ -d $mime/packages ]]; then
		update-mime-database "$mime" || true
	fi
	if command -v update-desktop-database >/dev/null && [[ -d $apps ]]; then
		update-desktop-database "$apps" || true
	fi
	if command -v gtk-update-icon-cache >/dev/null && [[ -f $prefix/share/icons/hicolor/index.theme ]]; then
		gtk-update-icon-cache -q "$prefix/share/icons/hicolor" || true
	fi
}

# systemKnowsSGF reports whether a shared-mime-info package on the system
# already defines the SGF type.
systemKnowsSGF() {
	local d dirs
	IFS=: read -ra dirs <<<"${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
	for d in "${dirs[@]}"; do
		if grep -qs 'application/x-go-sgf' "$d"/mime/packages/*.xml; then
			return 0
		fi
	done
	return 1
}

case $action in
install)
	for b in bin/aji bin/aji-app; do
		[[ -x $b ]] || { echo "install: $b is not built (run make install)" >&2; exit 1; }
	done
	install -d "$bindir" "$apps" "$icons"
	install -m 755 bin/aji bin/aji-app "$bindir/"
	install -m 644 assets/icon.png "$icons/$id.png"
	sed "s|@BINDIR@|$bindir|g" assets/aji.desktop.in >"$apps/$id.desktop.tmp"
	chmod 644 "$apps/$id.desktop.tmp"
	mv "$apps/$id.desktop.tmp" "$apps/$id.desktop"
	if ! systemKnowsSGF; then
		install -D -m 644 assets/sgf-mime.xml "$mime/packages/aji-sgf.xml"
	fi
	refresh
	echo "installed aji and aji-app in $bindir, the desktop entry in $apps"
	case ":$PATH:" in
	*":$bindir:"*) ;;
	*) echo "note: $bindir is not on your PATH; add it to run aji from a terminal" ;;
	esac
	;;
uninstall)
	rm -f "$bindir/aji" "$bindir/aji-app" "$apps/$id.desktop" "$icons/$id.png" "$mime/packages/aji-sgf.xml"
	refresh
	echo "removed aji and aji-app from $prefix"
	;;
*)
	echo "usage: $0 install|uninstall [PREFIX]" >&2
	exit 2
	;;
esac
