#!/usr/bin/env bash
# Installs what the build and the tests need, on a fresh Debian machine.
# Safe to run again: each step skips what is already there.
#
#   scripts/deps.sh go        Go modules and the tools pinned in go.mod
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

case "${1:-all}" in
go) go_deps ;;
all) go_deps ;;
*) echo "usage: scripts/deps.sh [go|all]" >&2; exit 2 ;;
esac
