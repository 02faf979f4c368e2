#!/usr/bin/env bash
# release-binaries.sh VERSION OUTDIR: the mobilemcp CLI for every platform a release offers, built
# with no cgo (so one Linux runner cross-compiles all of them), stripped, stamped with VERSION and the
# build id of scripts/build-id.sh (mobilemcp version prints both), each archive with LICENSE and a
# README.md beside the binary, and SHA256SUMS beside them, in the format sha256sum -c reads.
#
#   OUTDIR/mobilemcp-VERSION-linux-amd64.tar.gz      (mobilemcp, LICENSE and README.md inside;
#   OUTDIR/mobilemcp-VERSION-windows-amd64.zip        .zip and mobilemcp.exe for windows)
#   ...
#   OUTDIR/SHA256SUMS
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: ci/release-binaries.sh VERSION OUTDIR (VERSION such as 1.2.0, without the v)"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
version=$1
out=$2
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
	{ echo "release-binaries: VERSION $version is not a version such as 1.2.0; $usage" >&2; exit 2; }

# The Go of go.mod's toolchain line, whatever Go this machine has (the gate checks it).
GOTOOLCHAIN=$(scripts/go-toolchain.sh)
export GOTOOLCHAIN
# Every platform a release offers, GOOS/GOARCH. macOS: Go's linker marks the binaries for macOS 12
# and newer, the oldest Go supports (the gate checks the Mach-O load commands).
PLATFORMS="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
commit=$(scripts/build-id.sh)
ldflags="-s -w -X github.com/mobilemcp/mobilemcp/internal/buildinfo.version=$version -X github.com/mobilemcp/mobilemcp/internal/buildinfo.id=$commit"

# readme OS ARCH EXE: the README.md each archive carries.
readme() {
	cat <<EOF
# mobilemcp $version for $1 ($2)

The mobilemcp command line: it checks Mobile-MCP descriptors, runs requests on a simulated phone,
serves Mobile-MCP tools over MCP, and drives an Android phone's tools through adb.

    ./$3 version          this build: mobilemcp $version (build $commit)
    ./$3 help             every command
    ./$3 serve            the SMS tools over MCP at http://127.0.0.1:9531/mcp, on a simulated phone

Documentation: https://github.com/mobilemcp/mobilemcp (README.md, docs/). The checksums of every
archive of this release are in its SHA256SUMS. Licensed under the Apache License 2.0 (LICENSE).
EOF
}

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for platform in $PLATFORMS; do
	goos=${platform%/*}
	goarch=${platform#*/}
	# Release names use the names people search for: macos, not darwin.
	name="mobilemcp-$version-${goos/darwin/macos}-$goarch"
	exe=mobilemcp
	[ "$goos" = windows ] && exe=mobilemcp.exe
	mkdir -p "$work/$name"
	echo "release-binaries: $name"
	CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "$ldflags" -o "$work/$name/$exe" ./cmd/mobilemcp
	cp LICENSE "$work/$name/LICENSE"
	readme "${goos/darwin/macos}" "$goarch" "$exe" >"$work/$name/README.md"
	rm -f "$out/$name.zip" "$out/$name.tar.gz"
	if [ "$goos" = windows ]; then
		(cd "$work/$name" && zip -q -X "$out/$name.zip" "$exe" LICENSE README.md)
	else
		tar -C "$work/$name" -czf "$out/$name.tar.gz" "$exe" LICENSE README.md
	fi
done
(cd "$out" && sha256sum -- mobilemcp-"$version"-* > SHA256SUMS)
echo "release-binaries: wrote $(wc -l < "$out/SHA256SUMS") archives and SHA256SUMS to $out"
