#!/usr/bin/env bash
# Runs every fuzz target in the module for a while each: scripts/fuzz.sh 10m
# The argument is go test's -fuzztime: a duration (10m) or a count of inputs
# (20000x). A target whose inputs are slow (each a server's round trips) may
# cap a count in its doc comment, "scripts/fuzz.sh gives it at most 5000
# inputs"; a duration is never capped.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-10s}"
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	# shellcheck disable=SC2013 # fuzz target names are single words
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
		this=$fuzztime
		# The cap, from the doc comment right above the target.
		cap=$(awk -v f="func ${target}(" '
			/^\/\// { doc = doc "\n" $0; next }
			index($0, f) == 1 { print doc; exit }
			{ doc = "" }' "$dir"/*_test.go | sed -n 's/.*scripts\/fuzz\.sh gives it at most \([0-9][0-9]*\) inputs.*/\1/p')
		if [ -n "$cap" ] && [[ $fuzztime =~ ^([0-9]+)x$ ]] && [ "${BASH_REMATCH[1]}" -gt "$cap" ]; then
			this=${cap}x
		fi
		echo "== $pkg $target ($this)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$this" "$pkg"
	done
done
