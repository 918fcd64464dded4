#!/usr/bin/env bash
# Runs every fuzz target in the module for a bounded time (FUZZTIME, default
# 5s each). Targets are discovered with `go test -list`, so a new Fuzz
# function is fuzzed in CI without touching this script.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-5s}

# fuzz_once fuzzes one target. Go 1.26's fuzz coordinator can fail a clean run
# with a bare "context deadline exceeded" when -fuzztime ends while a worker
# is mid-call on a loaded machine (go.dev/issue/75804, fixed in Go 1.27); that
# failure, and only it (no failing input written, no panic or test error), is
# reported as such and returns 1 so the caller retries once. Any other failure
# ends the script.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fuzz_once() {
	if go test -run '^$' -fuzz "^${2}\$" -fuzztime "$fuzztime" "$1" >"$log" 2>&1; then
		cat "$log"
		return 0
	fi
	cat "$log"
	if [[ -z ${3:-} ]] && grep -q 'context deadline exceeded' "$log" &&
		! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"; then
		echo "fuzz: $2 hit Go's -fuzztime deadline race (go.dev/issue/75804), no failing input; running it once more"
		return 1
	fi
	exit 1
}

# Only packages whose tests mention a fuzz function are listed: `go test
# -list` compiles the test binary, which is wasted on the others.
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
	if ! grep -qs '^func Fuzz' "$dir"/*_test.go; then
		continue
	fi
	# A package that does not compile fails here rather than being skipped.
	list=$(go test -list '^Fuzz' "$pkg")
	for target in $(grep '^Fuzz' <<<"$list" || true); do
		echo "fuzz $pkg $target ($fuzztime)"
		fuzz_once "$pkg" "$target" || fuzz_once "$pkg" "$target" retry
	done
done
