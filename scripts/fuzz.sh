#!/usr/bin/env bash
# Runs every fuzz target in the module for a bounded time (FUZZTIME, default
# 5s each). Targets are discovered with `go test -list`, so a new Fuzz
# function is fuzzed in CI without touching this script.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-5s}

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
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
	done
done
