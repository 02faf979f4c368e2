#!/usr/bin/env bash
# release-packages.sh VERSION RELEASE_DIR OUTDIR: the ways desktop users install mobilemcp without Go,
# built from the very binaries of the CLI archives in RELEASE_DIR (ci/release-binaries.sh), with the
# tools each registry's own users build with (scripts/deps.sh packaging pins them):
#
#   OUTDIR/npm/mobilemcp-VERSION.tgz                  the npm package mobilemcp (npm pack): a Node
#                                                     launcher whose optionalDependencies are...
#   OUTDIR/npm/mobilemcp-cli-OS-CPU-VERSION.tgz       ...one package per system, @mobilemcp/cli-OS-CPU,
#                                                     with "os" and "cpu", holding bin/mobilemcp
#   OUTDIR/pypi/mobilemcp-PEP440-py3-none-TAG.whl     one wheel per system (hatchling), the binary
#                                                     as its script: uvx mobilemcp, pipx run mobilemcp
#   OUTDIR/mcpb/mobilemcp-VERSION-OS.mcpb             Claude Desktop bundles, validated and packed by
#                                                     @anthropic-ai/mcpb: one for macOS with a universal
#                                                     binary of both architectures, one for Windows
#                                                     with the x64 binary, which Windows on Arm runs
#   OUTDIR/server.json                                the MCP Registry's entry for this version
#
# The release gate (internal/cmd/releasecheck -packages) checks all of it, and ci/install-packages.sh
# installs the npm package and a wheel offline and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: ci/release-packages.sh VERSION RELEASE_DIR OUTDIR (VERSION such as 1.2.0, without the v)"
[ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
version=$1
release=$2
out=$3
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] ||
	{ echo "release-packages: VERSION $version is not a version such as 1.2.0; $usage" >&2; exit 2; }
[ -d "$release" ] || { echo "release-packages: $release is not a directory of CLI archives; $usage" >&2; exit 2; }

fail() {
	echo "release-packages: $*" >&2
	exit 1
}
python=$PWD/build/tools/packaging/bin/python
mcpb=$PWD/packaging/tools/node_modules/.bin/mcpb
if [ ! -x "$python" ] || [ ! -x "$mcpb" ]; then
	fail "the packaging tools are not installed; run scripts/deps.sh packaging"
fi
command -v npm >/dev/null || fail "npm is not installed; run scripts/deps.sh packaging"

# Each system a release offers: its archive's name, npm's os and cpu, and the wheel's platform tag
# (a Go binary needs no libc beyond the kernel's: manylinux and musllinux alike; Go needs macOS 12).
SYSTEMS="
linux-amd64   linux  x64   manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64
linux-arm64   linux  arm64 manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64
macos-amd64   darwin x64   macosx_12_0_x86_64
macos-arm64   darwin arm64 macosx_12_0_arm64
windows-amd64 win32  x64   win_amd64
windows-arm64 win32  arm64 win_arm64
"

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/npm" "$out/pypi" "$out/mcpb" "$out/server.json"
mkdir -p "$out/npm" "$out/pypi" "$out/mcpb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# binary SYSTEM DIR: extracts the system's mobilemcp from its archive into DIR, and prints its path.
binary() {
	local archive=$release/mobilemcp-$version-$1
	mkdir -p "$2"
	if [[ $1 == windows-* ]]; then
		[ -f "$archive.zip" ] || fail "no $archive.zip; run ci/release-binaries.sh $version $release first"
		unzip -q -o "$archive.zip" mobilemcp.exe -d "$2"
		echo "$2/mobilemcp.exe"
	else
		[ -f "$archive.tar.gz" ] || fail "no $archive.tar.gz; run ci/release-binaries.sh $version $release first"
		tar -xzf "$archive.tar.gz" -C "$2" mobilemcp
		echo "$2/mobilemcp"
	fi
}

# fill_manifest TEMPLATE VERSION PLATFORM EXE: the bundle's manifest for one system.
# shellcheck disable=SC2016 # Python, in which ${__dirname} is the bundle's own variable
fill_manifest='
import json, sys
template, version, platform, exe = sys.argv[1:]
with open(template) as f:
    manifest = json.load(f)
manifest["version"] = version
manifest["server"]["entry_point"] = "server/" + exe
manifest["server"]["mcp_config"]["command"] = "${__dirname}/server/" + exe
manifest["compatibility"]["platforms"] = [platform]
json.dump(manifest, sys.stdout, indent=2)
print()
'

mkdir -p "$work/npm" "$work/pypi" "$work/mcpb"
main_npm=$work/npm/mobilemcp
cp -R packaging/npm/mobilemcp "$main_npm"
cp packaging/package-readme.md "$main_npm/README.md"
cp LICENSE "$main_npm/LICENSE"
(cd "$main_npm" && npm pkg set "version=$version")

while read -r system os cpu wheel; do
	[ -n "$system" ] || continue
	echo "release-packages: $system"
	exe=$(binary "$system" "$work/bin/$system")

	# npm: @mobilemcp/cli-OS-CPU, installed only where os and cpu match.
	pkg=$work/npm/$system
	cp -R packaging/npm/platform "$pkg"
	mkdir -p "$pkg/bin"
	cp "$exe" "$pkg/bin/"
	chmod 755 "$pkg/bin/$(basename "$exe")"
	cp LICENSE "$pkg/LICENSE"
	printf '# @mobilemcp/cli-%s-%s\n\nThe mobilemcp %s binary for %s. Install the package \140mobilemcp\140, which picks it.\n' \
		"$os" "$cpu" "$version" "$system" >"$pkg/README.md"
	(cd "$pkg" && npm pkg set "name=@mobilemcp/cli-$os-$cpu" "version=$version" "os[0]=$os" "cpu[0]=$cpu" &&
		npm pack --silent --pack-destination "$out/npm" >/dev/null)
	(cd "$main_npm" && npm pkg set "optionalDependencies.@mobilemcp/cli-$os-$cpu=$version")

	# PyPI: a wheel whose script is the binary (packaging/python/hatch_build.py).
	whl=$work/pypi/$system
	mkdir -p "$whl/bin"
	cp packaging/python/pyproject.toml packaging/python/hatch_build.py LICENSE "$whl/"
	cp packaging/package-readme.md "$whl/README.md"
	cp "$exe" "$whl/bin/"
	chmod 755 "$whl/bin/$(basename "$exe")"
	(cd "$whl" && MOBILEMCP_VERSION=$version MOBILEMCP_WHEEL_PLATFORM=$wheel "$python" -m hatchling build -t wheel -d "$out/pypi" \
		>"$work/hatchling-$system.log" 2>&1) || fail "hatchling could not build the $system wheel: $(cat "$work/hatchling-$system.log")"
done <<<"$SYSTEMS"

# Claude Desktop: one bundle per system, since a manifest names an operating system but not an
# architecture, run as 'mobilemcp adb stdio'. macOS's binary is a universal one of both archives'
# (the fat format lipo -create writes: a header, then each Mach-O at a 16 KiB boundary), from which
# macOS starts the slice of the Mac's own architecture; Windows's is the x64 binary, which Windows
# on Arm runs by emulation.
universal='
import struct, sys
out, slices = sys.argv[1], [open(p, "rb").read() for p in sys.argv[2:]]
align = 14
header = struct.pack(">II", 0xCAFEBABE, len(slices))
body, offset = b"", 1 << align
for s in slices:
    cpu, subtype = struct.unpack("<II", s[4:12])
    header += struct.pack(">IIIII", cpu, subtype, offset, len(s), align)
    body += b"\0" * (offset - (1 << align) - len(body)) + s
    offset += -(-len(s) // (1 << align)) * (1 << align)
with open(out, "wb") as f:
    f.write(header + b"\0" * ((1 << align) - len(header)) + body)
'
# bundle NAME PLATFORM EXE: packs $work/mcpb/NAME, whose server/EXE is in place.
bundle() {
	local dir=$work/mcpb/$1
	chmod 755 "$dir/server/$3"
	cp LICENSE "$dir/LICENSE"
	"$python" -c "$fill_manifest" packaging/mcpb/manifest.json "$version" "$2" "$3" >"$dir/manifest.json"
	"$mcpb" validate "$dir/manifest.json" >"$work/mcpb-$1.log" 2>&1 ||
		fail "mcpb validate refused the $1 manifest: $(cat "$work/mcpb-$1.log")"
	"$mcpb" pack "$dir" "$out/mcpb/mobilemcp-$version-$1.mcpb" >"$work/mcpb-$1.log" 2>&1 ||
		fail "mcpb pack failed for $1: $(cat "$work/mcpb-$1.log")"
}
mkdir -p "$work/mcpb/macos/server" "$work/mcpb/windows/server"
"$python" -c "$universal" "$work/mcpb/macos/server/mobilemcp" "$work/bin/macos-amd64/mobilemcp" "$work/bin/macos-arm64/mobilemcp"
bundle macos darwin mobilemcp
cp "$work/bin/windows-amd64/mobilemcp.exe" "$work/mcpb/windows/server/"
bundle windows win32 mobilemcp.exe

(cd "$main_npm" && npm pack --silent --pack-destination "$out/npm" >/dev/null)

# The MCP Registry's entry: the PyPI package and each bundle, with its SHA-256, at the
# address the GitHub release gives it.
pypi_version=$("$python" -c 'import sys; from packaging.version import Version; print(Version(sys.argv[1]))' "$version")
"$python" - "$version" "$pypi_version" "$out/mcpb" >"$out/server.json" <<'PY'
import hashlib, json, os, sys
version, pypi_version, bundles = sys.argv[1:]
stdio = {"type": "stdio"}
args = [{"type": "positional", "value": "adb"}, {"type": "positional", "value": "stdio"}]
# Not the npm package: a client installing from the registry runs it with npx in the project it
# opened, where npx runs a planted node_modules/.bin/mobilemcp first (docs/security.md).
packages = [
    {"registryType": "pypi", "registryBaseUrl": "https://pypi.org", "identifier": "mobilemcp",
     "version": pypi_version, "runtimeHint": "uvx", "transport": stdio, "packageArguments": args},
]
for name in sorted(os.listdir(bundles)):
    with open(os.path.join(bundles, name), "rb") as f:
        sha256 = hashlib.sha256(f.read()).hexdigest()
    packages.append({"registryType": "mcpb",
                     "identifier": f"https://github.com/mobilemcp/mobilemcp/releases/download/v{version}/{name}",
                     "version": version, "fileSha256": sha256, "transport": stdio})
json.dump({
    "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    "name": "io.github.mobilemcp/mobilemcp",
    "title": "mobilemcp",
    "description": "Your Android phone's tools over USB: SMS and every Mobile-MCP tool you share",
    "repository": {"url": "https://github.com/mobilemcp/mobilemcp", "source": "github"},
    "websiteUrl": "https://github.com/mobilemcp/mobilemcp/blob/main/docs/desktop.md",
    "version": version,
    "packages": packages,
}, sys.stdout, indent=2)
print()
PY
echo "release-packages: wrote $(find "$out/npm" -name '*.tgz' | wc -l) npm packages, $(find "$out/pypi" -name '*.whl' | wc -l) wheels," \
	"$(find "$out/mcpb" -name '*.mcpb' | wc -l) bundles and server.json to $out"
