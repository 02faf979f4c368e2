#!/usr/bin/env bash
# host-engines.sh [OUTDIR]: every host engine this Linux machine builds (make host-engines), into
# OUTDIR (default build/host-engines), the directory the engine jar (android/sdk-testing-engine) is made
# from: linux-x86_64 and linux-aarch64 against glibc 2.17, and windows-x86_64, all the tool engine
# (./intentbridge) alone, cross-built with zig (scripts/host-engine.sh). Then it checks each
# (internal/cmd/enginecheck), one PASS or FAIL line per check naming the platform: the format and
# architecture, the exported JNI_OnLoad and Java_… functions, the glibc floor, the Windows imports,
# the build id. The macOS engines are built on macOS runners by the release workflow.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-build/host-engines}
PLATFORMS="linux-x86_64 linux-aarch64 windows-x86_64"

scripts/deps.sh zig
for platform in $PLATFORMS; do
	scripts/host-engine.sh "$platform" "$out"
done
rm -rf "$out-java"
go run ./internal/cmd/enginecheck -want "$(tr ' ' , <<<"$PLATFORMS")" -build-id "$(scripts/build-id.sh)" "$out"
