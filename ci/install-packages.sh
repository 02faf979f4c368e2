#!/usr/bin/env bash
# install-packages.sh VERSION PACKAGES_DIR BUILD_ID: installs what ci/release-packages.sh built, offline,
# into a scratch directory, the ways a desktop user does, and runs it; one PASS or FAIL line each,
# exit 1 on any FAIL. Every run has a PATH without Go, a HOME, caches and data directory of its own,
# and no network: each installer takes the packages from PACKAGES_DIR alone.
#
#   npm install    the mobilemcp package and this system's @mobilemcp/cli-* package: npx mobilemcp version
#   npx            npx --package with the tarballs, through npm's cache, as 'npx -y mobilemcp' runs it;
#                  its 'config' prints the npx line, and 'serve --stdio' answers MCP through the launcher;
#                  the printed npx line, from a project with a planted mobilemcp, runs the registry's
#                  (a registry of the tarballs alone, on the loopback: ci/npm-registry.js)
#   uvx            uvx mobilemcp version, and its 'config' prints the uvx line
#   pipx run       pipx run mobilemcp version (pipx's default backend, uv); with pipx's own defaults in
#                  a fresh HOME, for its uv and pip backends, 'config' prints a command that answers MCP
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
check "npx: mobilemcp config claude-code" "claude mcp add phone -- /bin/sh -c 'cd / && exec npx -y mobilemcp \"\$@\"' mobilemcp adb stdio" \
	"$(cd "$scratch" && run "${npx[@]}" mobilemcp config claude-code 2>&1)"
# MCP over stdio through the Node launcher: the client's lines reach the binary and its replies come back.
mcp='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"install-packages","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
tools_list=$(cd "$scratch" && run "${npx[@]}" mobilemcp serve --stdio <<<"$mcp" 2>/dev/null | grep -o '"name":"send_sms"' | head -n 1)
check "npx: serve --stdio answers tools/list" '"name":"send_sms"' "$tools_list"

# The line 'config --via npx' prints, run as a client runs it (Node's spawn, in the project the client
# opened) from a project holding, in its directory and its parent, a planted node_modules/.bin/mobilemcp,
# sh and node, a node_modules/mobilemcp of this version with that bin, and an .npmrc naming the planted
# shell: what runs is the registry's mobilemcp. The registry is ci/npm-registry.js on the loopback,
# serving the packed tarballs alone, so that the line runs as printed, by the package's name. The bare
# 'npx -y mobilemcp' runs a planted program there (the shell npx starts), which shows the plant works.
planted=$scratch/planted-ran
project=$scratch/parent/project
for dir in "$scratch/parent" "$project"; do
	mkdir -p "$dir/node_modules/.bin" "$dir/node_modules/mobilemcp/bin"
	for name in mobilemcp sh node; do
		# shellcheck disable=SC2016 # $0 is the planted program's own path
		printf '#!/bin/sh\necho "%s in $0" >>%s\nexit 3\n' "$name" "$planted" >"$dir/node_modules/.bin/$name"
		chmod 755 "$dir/node_modules/.bin/$name"
	done
	cp "$dir/node_modules/.bin/mobilemcp" "$dir/node_modules/mobilemcp/bin/mobilemcp.js"
	printf '{"name":"mobilemcp","version":"%s","bin":{"mobilemcp":"bin/mobilemcp.js"}}\n' "$version" >"$dir/node_modules/mobilemcp/package.json"
	printf '{"name":"project","version":"1.0.0","dependencies":{"mobilemcp":"%s"}}\n' "$version" >"$dir/package.json"
	printf 'script-shell=%s\n' "$dir/node_modules/.bin/sh" >"$dir/.npmrc"
done
node ci/npm-registry.js "$packages"/npm/*.tgz >"$scratch/registry.out" &
registry_pid=$!
trap 'kill "$registry_pid" 2>/dev/null; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 50); do
	[ -s "$scratch/registry.out" ] && break
	sleep 0.1
done
registry=$(head -n 1 "$scratch/registry.out")
# spawn_line DIR: starts the claude-desktop configuration on stdin in DIR as a client does, with
# the loopback registry, and prints what its MCP server answers to tools/list.
spawn_line() {
	spawn_with run npm_config_offline=false npm_config_registry="$registry" -- "$1"
}
node_exe=$(command -v node)
# spawn_with RUNNER [VAR=VALUE...] -- DIR: spawn_line's client, in the environment RUNNER gives it.
spawn_with() {
	local runner=$1 vars=()
	shift
	while [ "$1" != -- ]; do
		vars+=("$1")
		shift
	done
	# shellcheck disable=SC2016 # JavaScript
	"$runner" "${vars[@]}" "$node_exe" -e '
const { spawn } = require("node:child_process");
const server = Object.values(JSON.parse(require("node:fs").readFileSync(0, "utf8")).mcpServers)[0];
const child = spawn(server.command, server.args, { cwd: process.argv[1], stdio: ["pipe", "inherit", "ignore"] });
child.stdin.end(process.argv[2] + "\n");
child.on("exit", (code) => process.exit(code ?? 1));
' "$2" "$mcp" 2>&1 | grep -o '"name":"send_sms"' | head -n 1
}
line=$(cd "$scratch" && run "${npx[@]}" mobilemcp config --via npx --simulated claude-desktop 2>&1)
for dir in "$scratch/parent" "$project"; do
	rm -f "$planted"
	check "npx line from a planted ${dir#"$scratch/"}" '"name":"send_sms" and nothing planted ran' \
		"$(spawn_line "$dir" <<<"$line") and $(cat "$planted" 2>/dev/null || echo nothing planted ran)"
done
rm -f "$planted"
bare='{"mcpServers":{"sms":{"command":"npx","args":["-y","mobilemcp","serve","--stdio"]}}}'
spawn_line "$project" <<<"$bare" >/dev/null
check "bare npx -y mobilemcp runs the planted" "sh in $project/node_modules/.bin/sh" "$(head -n 1 "$planted" 2>/dev/null)"

# uvx on the PATH, as a user who installed uv has it.
mkdir -p "$scratch/uvx-only"
ln -s "$tools/uvx" "$scratch/uvx-only/uvx"
check "uvx: mobilemcp version" "$want" "$(cd "$scratch" && run PATH="$scratch/uvx-only:$path" uvx mobilemcp version 2>&1 | tail -n 1)"
check "uvx: mobilemcp config claude-code" "claude mcp add phone -- uvx mobilemcp adb stdio" \
	"$(cd "$scratch" && run PATH="$scratch/uvx-only:$path" uvx mobilemcp config claude-code 2>&1 | tail -n 1)"

check "pipx run mobilemcp version" "$want" "$(cd "$scratch" && run "$tools/pipx" run mobilemcp version 2>&1 | tail -n 1)"

# pipx run with pipx's own defaults in a fresh HOME (no PIPX_HOME: its cache is ~/.cache/pipx), with
# its default backend (uv, which pipx bundles: no uvx on PATH) and with its pip backend (the pip wheel
# it upgrades to comes from build/tools/pypi-wheels): 'config --simulated claude-desktop' prints a
# command that a client starts, with pipx on its PATH, and that answers MCP.
wheels=$PWD/build/tools/pypi-wheels
[ -f "$wheels/offline-wheels.txt" ] || { echo "install-packages: no $wheels; run scripts/deps.sh packaging" >&2; exit 1; }
mkdir -p "$scratch/pipx-only"
ln -s "$tools/pipx" "$scratch/pipx-only/pipx"
pipx_defaults() {
	env -i PATH="$scratch/pipx-only:/usr/bin:/bin" HOME="$scratch/pipx-$backend" MOBILEMCP_DATA_DIR="$scratch/data" \
		UV_OFFLINE=1 UV_NO_INDEX=1 UV_FIND_LINKS="$packages/pypi" UV_PYTHON_DOWNLOADS=never \
		PIP_NO_INDEX=1 PIP_FIND_LINKS="$packages/pypi $wheels" PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}
for backend in uv pip; do
	select=()
	[ "$backend" = uv ] || select=(PIPX_DEFAULT_BACKEND="$backend")
	line=$(cd "$scratch" && pipx_defaults "${select[@]}" pipx run mobilemcp config --simulated claude-desktop 2>/dev/null)
	check "pipx run ($backend): config's command" "pipx run mobilemcp serve --stdio" \
		"$(printf '%s' "$line" | "$node_exe" -e 'const s = Object.values(JSON.parse(require("node:fs").readFileSync(0, "utf8")).mcpServers)[0]; console.log([s.command, ...s.args].join(" "))' 2>&1)"
	check "pipx run ($backend): it answers MCP" '"name":"send_sms"' \
		"$(spawn_with pipx_defaults "${select[@]}" -- "$scratch" <<<"$line")"
done

venv=$scratch/venv
out=$(run "$tools/python" -m venv "$venv" 2>&1 && run "$venv/bin/python" -m pip install --quiet mobilemcp 2>&1) ||
	check "pip install (offline)" "installed" "$out"
check "pip: bin/mobilemcp version" "$want" "$(run "$venv/bin/mobilemcp" version 2>&1)"

exit "$failed"
