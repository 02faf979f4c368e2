#!/usr/bin/env bash
# install-packages.sh VERSION PACKAGES_DIR BUILD_ID: installs what ci/release-packages.sh built, offline,
# into a scratch directory, the ways a desktop user does, and runs it; one PASS or FAIL line each,
# exit 1 on any FAIL. Every run has a PATH without Go, a HOME, caches and data directory of its own,
# and no network: each installer takes the packages from PACKAGES_DIR alone.
#
#   npm install    the mobilemcp package and this system's @mobilemcp/cli-* package: npx mobilemcp version
#   npx            npx --package with the tarballs, through npm's cache, as 'npx -y mobilemcp' runs it;
#                  its 'config' prints the npx line, and 'serve --stdio' answers MCP through the launcher
#   uvx            uvx mobilemcp version, and its 'config' prints the uvx line
#   pipx run       pipx run mobilemcp version (pipx's default backend, uv)
#   pip install    into a virtual environment: its bin/mobilemcp is the binary itself
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

usage="usage: ci/install-packages.sh VERSION PACKAGES_DIR BUILD_ID"
[ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
version=$1
packages=$(cd "$2" && pwd) || { echo "install-packages: no directory $2; $usage" >&2; exit 2; }
build_id=$3
tools=$PWD/build/tools/packaging/bin
[ -x "$tools/uv" ] || { echo "install-packages: uv and pipx are not installed; run scripts/deps.sh packaging" >&2; exit 1; }
want="mobilemcp $version (build $build_id)"

scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
# Everything the installers and mobilemcp write goes to the scratch directory; none reaches a network.
go_dir=$(dirname "$(command -v go 2>/dev/null || echo /nonexistent/go)")
path=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$go_dir" | paste -sd: -)
run() {
	env -i PATH="$path" HOME="$scratch/home" MOBILEMCP_DATA_DIR="$scratch/data" \
		npm_config_cache="$scratch/npm-cache" npm_config_offline=true npm_config_update_notifier=false \
		npm_config_audit=false npm_config_fund=false \
		UV_CACHE_DIR="$scratch/uv-cache" UV_TOOL_DIR="$scratch/uv-tools" UV_PYTHON_DOWNLOADS=never UV_NO_CONFIG=1 \
		UV_OFFLINE=1 UV_NO_INDEX=1 UV_FIND_LINKS="$packages/pypi" \
		PIPX_HOME="$scratch/pipx" PIPX_BIN_DIR="$scratch/pipx-bin" PIPX_MAN_DIR="$scratch/pipx-man" \
		PIP_NO_INDEX=1 PIP_FIND_LINKS="$packages/pypi" PIP_DISABLE_PIP_VERSION_CHECK=1 \
		"$@"
}
mkdir -p "$scratch/home" "$scratch/data" "$scratch/npm"

failed=0
# check NAME WANT GOT: PASS when GOT is WANT.
check() {
	if [ "$3" = "$2" ]; then
		printf 'PASS  %-36s %s\n' "$1" "$3"
	else
		printf 'FAIL  %-36s printed %s, not %s\n' "$1" "$(head -c 600 <<<"$3")" "$2"
		failed=1
	fi
}

if run sh -c 'command -v go' >/dev/null; then
	check "no Go on the PATH" "" "go is still on the PATH: $(run sh -c 'command -v go')"
fi

system=$(node -p 'process.platform + "-" + process.arch')
main=$packages/npm/mobilemcp-$version.tgz
platform=$packages/npm/mobilemcp-cli-$system-$version.tgz

out=$(cd "$scratch/npm" && run npm install --no-save --prefix . "$main" "$platform" 2>&1 >/dev/null) ||
	check "npm install (offline)" "installed" "$out"
check "npm: npx mobilemcp version" "$want" "$(cd "$scratch/npm" && run npx --offline mobilemcp version 2>&1)"

npx=(npx --offline --yes "--package=$main" "--package=$platform" --)
check "npx: mobilemcp version" "$want" "$(cd "$scratch" && run "${npx[@]}" mobilemcp version 2>&1)"
check "npx: mobilemcp config claude-code" "claude mcp add phone -- npx -y mobilemcp adb stdio" \
	"$(cd "$scratch" && run "${npx[@]}" mobilemcp config claude-code 2>&1)"
# MCP over stdio through the Node launcher: the client's lines reach the binary and its replies come back.
mcp='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"install-packages","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
tools_list=$(cd "$scratch" && run "${npx[@]}" mobilemcp serve --stdio <<<"$mcp" 2>/dev/null | grep -o '"name":"send_sms"' | head -n 1)
check "npx: serve --stdio answers tools/list" '"name":"send_sms"' "$tools_list"

check "uvx: mobilemcp version" "$want" "$(cd "$scratch" && run "$tools/uvx" mobilemcp version 2>&1 | tail -n 1)"
check "uvx: mobilemcp config claude-code" "claude mcp add phone -- uvx mobilemcp adb stdio" \
	"$(cd "$scratch" && run "$tools/uvx" mobilemcp config claude-code 2>&1 | tail -n 1)"

check "pipx run mobilemcp version" "$want" "$(cd "$scratch" && run "$tools/pipx" run mobilemcp version 2>&1 | tail -n 1)"

venv=$scratch/venv
out=$(run "$tools/python" -m venv "$venv" 2>&1 && run "$venv/bin/python" -m pip install --quiet mobilemcp 2>&1) ||
	check "pip install (offline)" "installed" "$out"
check "pip: bin/mobilemcp version" "$want" "$(run "$venv/bin/mobilemcp" version 2>&1)"

exit "$failed"
