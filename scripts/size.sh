#!/usr/bin/env bash
# size.sh: how big the engine is that each app ships, built as gomobile builds it for a device
# (-buildmode=c-shared, stripped: -trimpath -ldflags="-s -w"), for linux/amd64 as a stand-in for
# an Android ABI. It prints the engine every tool app ships (intentbridge) and the SMS app's
# (intentbridge + smsapp), and fails when the tool engine is over its budget or imports what only
# the SMS app needs (an HTTP server, the MCP SDK, the SMS capabilities).
#
#   TOOL_BUDGET_BYTES   the tool engine's budget (default 3500000, 3.5 MB)
set -euo pipefail
cd "$(dirname "$0")/.."

budget=${TOOL_BUDGET_BYTES:-3500000}
module=github.com/mobilemcp/mobilemcp
# Inside the module, so that the programs build against this checkout; the _ keeps them out of ./...
work=build/_size
rm -rf "$work"

# size NAME PACKAGE...: the stripped c-shared library of a program that imports the packages.
size() {
	local name=$1 pkg
	shift
	mkdir -p "$work/$name"
	{
		echo "package main"
		echo
		for pkg in "$@"; do echo "import _ \"$module/$pkg\""; done
		echo
		echo 'import "C"'
		echo
		echo "func main() {}"
	} >"$work/$name/main.go"
	CGO_ENABLED=1 GOOS=linux GOARCH=amd64 go build -trimpath -ldflags="-s -w" -buildmode=c-shared \
		-o "$work/$name.so" "./$work/$name"
	stat -c %s "$work/$name.so"
}

status=0
forbidden=$(go list -deps ./intentbridge | grep -E '^(net/http|crypto/tls|github.com/modelcontextprotocol/.*|'"$module"'/capability/sms(/.*)?|'"$module"'/mcpserver(/.*)?)$' || true)
if [ -n "$forbidden" ]; then
	echo "size: intentbridge, which every tool app ships, imports what only the SMS app needs:" >&2
	sed 's/^/  /' <<<"$forbidden" >&2
	status=1
fi
tool=$(size tool intentbridge)
app=$(size app intentbridge smsapp)
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1000000 }'; }
echo "size: the tool engine (intentbridge): $tool bytes ($(mb "$tool") MB; budget $(mb "$budget") MB)"
echo "size: the SMS app engine (intentbridge + smsapp): $app bytes ($(mb "$app") MB)"
if [ "$tool" -gt "$budget" ]; then
	echo "size: the tool engine is $tool bytes, over its budget of $budget: every tool app would carry it, once per ABI" >&2
	status=1
fi
exit $status
