#!/usr/bin/env bash
# Installs what the build and the tests need, on a fresh Debian machine.
# Safe to run again: each step skips what is already there.
#
#   scripts/deps.sh go        Go modules and the tools pinned in go.mod
#   scripts/deps.sh npm       the TypeScript MCP SDK for the interop test (interop/ts)
#   scripts/deps.sh all       everything the full test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1 || { echo "deps: $1 is not installed; $2" >&2; exit 1; }; }

go_deps() {
	need go "install Go 1.26 or newer from https://go.dev/dl/"
	echo "deps: downloading Go modules"
	go mod download
	# Building the pinned tools now keeps the first test run from stalling.
	go build -o /dev/null honnef.co/go/tools/cmd/staticcheck
}

npm_deps() {
	need node "install Node.js 18 or newer (Debian: apt-get install nodejs npm)"
	need npm "install npm (Debian: apt-get install npm)"
	# npm ci installs exactly the committed lock file. npm records what it
	# installed in node_modules/.package-lock.json; when that is newer than
	# the lock file, the install is current and is kept.
	local dir=interop/ts
	if [ -f "$dir/node_modules/.package-lock.json" ] && [ ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
		echo "deps: $dir/node_modules is up to date"
		return
	fi
	echo "deps: npm ci in $dir"
	(cd "$dir" && npm ci --no-audit --no-fund)
}

case "${1:-all}" in
go) go_deps ;;
npm) npm_deps ;;
all) go_deps && npm_deps ;;
*) echo "usage: scripts/deps.sh [go|npm|all]" >&2; exit 2 ;;
esac
