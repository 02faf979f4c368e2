#!/usr/bin/env bash
# replay-transcripts.sh [HOST:PORT]: replays the four transactions of the Android SMS MCP server's
# reference transcripts (initialize, tools/list, get_sms_subscriptions, send_sms) with curl against
# 'mobilemcp serve' on a temporary data directory, and prints each exchange. HOST:PORT is where the
# server listens; the default, 127.0.0.1:0, is a free port.
#
# The requests, with the transcripts' exact headers and bodies, are in
# mcpserver/testdata/transcripts/*.http. Host is the one header not sent as the transcripts have it:
# they were recorded against a phone at 192.168.0.11:9531, and on a loopback connection the MCP SDK
# answers a foreign Host with 403 (its DNS-rebinding guard). The server's real host:port is sent
# instead.
#
# Exit status: 0 when every reply is HTTP 200, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
server=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	if [ -n "$server" ]; then
		kill -INT "$server" 2>/dev/null || true
		wait "$server" || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/mobilemcp" ./cmd/mobilemcp
addr=${1:-127.0.0.1:0}
"$tmp/mobilemcp" serve --addr "$addr" --data-dir "$tmp/data" >"$tmp/stdout" 2>"$tmp/stderr" &
server=$!
url=
for _ in $(seq 100); do
	url=$(sed -n 's/^Serving MCP at \(http:[^ ]*\) .*/\1/p' "$tmp/stdout")
	[ -n "$url" ] && break
	sleep 0.1
done
if [ -z "$url" ]; then
	echo "replay-transcripts: the server did not start:" >&2
	cat "$tmp/stdout" "$tmp/stderr" >&2
	exit 1
fi
hostport=${url#http://}
hostport=${hostport%/mcp}
echo "\$ mobilemcp serve --addr $addr --data-dir \$TMP/data"
sed "s|$tmp|\$TMP|" "$tmp/stdout"

pretty() { if command -v python3 >/dev/null; then python3 -m json.tool --no-ensure-ascii; else cat; fi; }

status=0
for file in mcpserver/testdata/transcripts/*.http; do
	# The request line, then headers up to the blank line, then the body.
	headers=() # "name: value", as curl -H takes them
	body=
	section=request
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case $section in
		request) section=headers ;;
		headers)
			if [ -z "$line" ]; then section=body; continue; fi
			case ${line,,} in
			host:* | content-length:*) ;; # sent by curl: the real Host, the real length
			*) headers+=("$line") ;;
			esac
			;;
		body) body+=$line ;;
		esac
	done <"$file"
	headers+=("Host: $hostport")
	args=()
	for h in "${headers[@]}"; do args+=(-H "$h"); done

	echo
	echo "### $(basename "$file")"
	printf '$ curl -sS -i %s' "$url"
	cont=$' \\\n    ' # a shell line continuation, for a readable transcript
	for h in "${headers[@]}"; do printf "%s-H '%s'" "$cont" "$h"; done
	printf "%s--data-binary '%s'\n" "$cont" "$body"
	reply=$(curl -sS -i "$url" "${args[@]}" --data-binary "$body")
	head=${reply%%$'\r\n\r\n'*}
	echo "${head//$'\r'/}"
	echo
	printf '%s' "${reply#*$'\r\n\r\n'}" | pretty
	case $head in
	"HTTP/1.1 200 OK"*) ;;
	*) status=1 ;;
	esac
done

kill -INT "$server"
wait "$server" || status=1
server=
echo
echo "### the server's log (stderr)"
cat "$tmp/stderr"
echo
echo "\$ mobilemcp outbox --data-dir \$TMP/data"
"$tmp/mobilemcp" outbox --data-dir "$tmp/data" | sed "s|$tmp|\$TMP|"
exit $status
