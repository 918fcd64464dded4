#!/usr/bin/env bash
# Runs every fuzz target in the module for a bounded number of executions.
# Targets are discovered with `go test -list`, so a new Fuzz function is fuzzed
# in CI without touching this script.
#
# The budget is a count (-fuzztime Nx), not a duration: Go 1.26's fuzz
# coordinator can fail a clean run with a bare "context deadline exceeded" when
# a duration's deadline lands while a worker is mid-call on a loaded machine
# (go.dev/issue/75804, fixed in Go 1.27). A count sets no deadline, so there is
# nothing to race; a loaded machine only takes longer.
set -euo pipefail
cd "$(dirname "$0")/.."

# Executions per target: 20,000, or the count below for targets whose one
# execution is slow (a whole model decoded, a game replayed, a GTP session
# served), each about what 5 s of fuzzing gave on a slow 2-core machine.
# FUZZEXECS, when set, is the count for every target.
declare -A execs=(
	[aji/analysis/game FuzzParse]=4000
	[aji/analysis/gtp FuzzServe]=6000
	[aji/analysis/mcts FuzzDecodePatternModel]=1500
	[aji/analysis/predict/cfgbt FuzzDecodePayload]=6
	[aji/analysis/predict/fbt FuzzDecodePayload]=4000
	[aji/analysis/predict/mm FuzzDecodePayload]=10
	[aji/analysis/reading/surrogate FuzzDecodeHier]=5000
)

# Only packages whose tests mention a fuzz function are listed: `go test
# -list` compiles the test binary, which is wasted on the others.
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
	if ! grep -qs '^func Fuzz' "$dir"/*_test.go; then
		continue
	fi
	# A package that does not compile fails here rather than being skipped.
	list=$(go test -list '^Fuzz' "$pkg")
	for target in $(grep '^Fuzz' <<<"$list" || true); do
		n=${FUZZEXECS:-${execs["$pkg $target"]:-20000}}
		echo "fuzz $pkg $target (${n} executions)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "${n}x" "$pkg"
	done
done
