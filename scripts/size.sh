#!/usr/bin/env bash
# size.sh [--android DIR]: how big the engine is that every tool ships, measured on real engines:
# gobind's glue over ./intentbridge alone, stripped, built exactly as apps ship it
# (scripts/host-engine.sh --shipped) for linux-x86_64, linux-aarch64 and windows-x86_64 into
# build/size-engines, or with --android as make aar builds them (DIR/<abi>/libmobilemcp.so, the
# release pipeline's). It prints each platform's size and fails over the budget, and fails when the
# tool engine imports what only the SMS app, lint or the MCP server needs (an HTTP server, the MCP
# SDK, the SMS capabilities, XML, regular expressions, slog, JSON Schema, crypto). Then it says what
# the engine is made of: the largest packages of an unstripped linux-x86_64 build, by the size of
# their code and read-only data (go tool nm -size).
#
#   TOOL_BUDGET_BYTES   the budget per platform (default 3145728, 3.0 MiB)
#
# The budget is what the engine measured once the steps in docs/internals/benchmarks.md ("The size
# of the tool engine") were taken, with a little room: lower it when the engine shrinks, and never
# raise it to let a change through.
set -euo pipefail
cd "$(dirname "$0")/.."

budget=${TOOL_BUDGET_BYTES:-3145728}
module=github.com/mobilemcp/mobilemcp
mib() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1048576 }'; }
status=0

forbidden=$(go list -deps ./intentbridge | grep -E '^(net/http|crypto/.*|encoding/xml|regexp(/.*)?|log/slog|math/big|github.com/(modelcontextprotocol|google/jsonschema-go|beevik/etree)/.*|'"$module"'/(sms|mcpserver|engine/descriptor/xmlfile|engine/mcptool)(/.*)?)$' || true)
if [ -n "$forbidden" ]; then
	echo "size: intentbridge, which every tool app ships, imports what only the SMS app, lint or the MCP server needs:" >&2
	sed 's/^/  /' <<<"$forbidden" >&2
	status=1
fi

# measure NAME FILE: prints the line for one engine and checks its budget.
measure() {
	local name=$1 file=$2 bytes
	bytes=$(wc -c <"$file" | tr -d ' ')
	printf 'size: %-16s %9d bytes (%s MiB; budget %d, %s MiB)\n' "$name" "$bytes" "$(mib "$bytes")" "$budget" "$(mib "$budget")"
	if [ "$bytes" -gt "$budget" ]; then
		echo "size: the $name engine is $bytes bytes, over its budget of $budget: every tool app would carry it" >&2
		status=1
	fi
}

found=0
if [ "${1:-}" = --android ]; then
	[ $# = 2 ] || { echo "usage: scripts/size.sh [--android DIR]" >&2; exit 2; }
	for lib in "$2"/*/libmobilemcp.so; do
		[ -f "$lib" ] || continue
		found=$((found + 1))
		measure "$(basename "$(dirname "$lib")")" "$lib"
	done
	[ "$found" -gt 0 ] || { echo "size: no <abi>/libmobilemcp.so in $2: run make aar first" >&2; exit 1; }
	exit $status
fi

# The engines apps ship, built for the platforms this machine cross-builds (the host engines of make
# host-engines carry one check more, which apps do not ship).
out=build/size-engines
scripts/deps.sh zig
for platform in linux-x86_64 linux-aarch64 windows-x86_64; do
	scripts/host-engine.sh --shipped "$platform" "$out" >/dev/null
done
rm -rf "$out-java"
dir=$out/io/github/mobilemcp/sdk/testing/engine
for platform in linux-x86_64 linux-aarch64 windows-x86_64; do
	for lib in "$dir/$platform"/libmobilemcp.so "$dir/$platform"/mobilemcp.dll; do
		[ -f "$lib" ] || continue
		found=$((found + 1))
		measure "$platform" "$lib"
	done
done
[ "$found" = 3 ] || { echo "size: built $found of the 3 engines in $dir" >&2; exit 1; }

# What the engine is made of: the same glue, built for this machine without -s -w, so that the
# symbol table is there to read. Code and read-only data (nm types T, t, R, r) per package.
work=build/_size
rm -rf "$work"
scripts/engine-glue.sh host "$work/engine" ./intentbridge >/dev/null
if [ -z "${JAVA_HOME:-}" ]; then
	JAVA_HOME=$(cd "$(dirname "$(readlink -f "$(command -v javac)")")/.." && pwd)
fi
cc=${CC:-cc}
[ -x build/tools/ziglang/ziglang/zig ] && cc="$PWD/build/tools/ziglang/ziglang/zig cc -target x86_64-linux-gnu.2.17"
CGO_ENABLED=1 CC=$cc CGO_CFLAGS="-O2 -Wno-incompatible-pointer-types -I$JAVA_HOME/include -I$JAVA_HOME/include/linux" \
	go build -trimpath -buildmode=c-shared -o "$work/unstripped.so" "./$work/engine/glue"
echo "size: the largest packages of the engine (code and read-only data of an unstripped build, go tool nm -size):"
go tool nm -size "$work/unstripped.so" | awk '
	$3 ~ /^[TtRr]$/ && NF >= 4 {
		p = $4
		if (p ~ /^type:/) p = "(type-descriptors)"
		else if (p ~ /^go:/) p = "(go:-tables)"
		else sub(/\.[^.\/]*(\.|$).*/, "", p)
		size[p] += $2; total += $2
	}
	END {
		for (p in size) printf "%d %s\n", size[p], p
		printf "%d TOTAL\n", total
	}' | sort -rn | awk '
	/ TOTAL$/ { total = $1; next }
	{ rows[n++] = $0 }
	END {
		for (i = 0; i < 14 && i < n; i++) { split(rows[i], f, " "); printf "  %8d  %s\n", f[1], f[2] }
		printf "  %8d  all of it\n", total
	}'
exit $status
