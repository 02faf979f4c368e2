#!/usr/bin/env bash
# Runs every fuzz target in the module for a while each: scripts/fuzz.sh 10m
# The argument is go test's -fuzztime: a duration (10m) or a count of inputs
# (20000x).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-10s}"
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	# shellcheck disable=SC2013 # fuzz target names are single words
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
		echo "== $pkg $target ($fuzztime)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
	done
done
