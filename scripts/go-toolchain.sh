#!/usr/bin/env bash
# go-toolchain.sh: prints the Go toolchain that go.mod's toolchain line names (go1.26.11), the one
# every released binary is built with. The scripts that build what a release ships (the CLI
# archives, the host engines, the Android engines) set GOTOOLCHAIN to it, so the go command runs
# exactly that release on any machine (downloading it once if the installed Go is another), as
# actions/setup-go installs it on the hosted runners; the release gate checks the Go version each
# binary records (internal/cmd/releasecheck -go).
set -euo pipefail
cd "$(dirname "$0")/.."
toolchain=$(sed -n 's/^toolchain[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' go.mod)
[ -n "$toolchain" ] || { echo "go-toolchain: go.mod has no toolchain line (toolchain go1.X.Y)" >&2; exit 1; }
echo "$toolchain"
