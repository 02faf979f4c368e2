"""Interop check: the fastmcp client (a popular framework on the official Python SDK).

fastmcp 4.2 negotiates protocol 2026-07-28, which has no initialize, and health-checks a server
with ping, which that version removed. Over Streamable HTTP, against a running server started
with a token:

    interop/python/.venv/bin/python fastmcp_client.py http URL TOKEN

or over stdio, spawning the command as a desktop agent does, and then checking the outbox:

    interop/python/.venv/bin/python fastmcp_client.py stdio OUTBOX mobilemcp serve --stdio --data-dir DIR

Either way it pings, lists the tools, reads the subscriptions, sends one SMS and gets a
bad-argument error, and checks every value. Exit status: 0 when everything matches, 1 on any
mismatch, 2 on a usage error.
"""

import asyncio
import json
import platform
import sys
from importlib.metadata import version

from fastmcp import Client
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport

import client as common  # the Python SDK client's check(), which counts the failures
from client import SUBSCRIPTIONS, check


def text(result):
    return [block.text for block in result.content]


async def session(transport):
    async with Client(transport) as c:
        check("ping", await c.ping(), True)
        tools = await c.list_tools()
        print(f"> tools/list: {', '.join(tool.name for tool in tools)}")
        check("tool names", sorted(tool.name for tool in tools), ["get_sms_subscriptions", "send_sms"])

        subs = await c.call_tool("get_sms_subscriptions", {})
        check("get_sms_subscriptions structuredContent", subs.structured_content, SUBSCRIPTIONS)

        args = {"to_phone_number": "+33785880347", "sms_text": "Hello world", "subscription_id": 14}
        sent = await c.call_tool("send_sms", args)
        print(f"> tools/call send_sms {json.dumps(args)}: {text(sent)}")
        check("send_sms", [sent.is_error, text(sent)], [False, ["SMS sent to +33785880347"]])

        bad = await c.call_tool("send_sms", dict(args, subscription_id=99), raise_on_error=False)
        print(f"> tools/call send_sms subscription_id 99: isError {bad.is_error}: {text(bad)[0]}")
        check("a bad subscription_id is a tool error", [bad.is_error, text(bad)[0].split(":")[0]], [True, "invalid_arguments"])

        check("ping after the calls", await c.ping(), True)


def main(args):
    print(f"python {platform.python_version()}, fastmcp {version('fastmcp')}, mcp {version('mcp')}")
    if len(args) == 3 and args[0] == "http":
        url, token = args[1], args[2]
        asyncio.run(session(StreamableHttpTransport(url, headers={"Authorization": f"Bearer {token}"})))
    elif len(args) >= 3 and args[0] == "stdio":
        outbox, command = args[1], args[2:]
        print(f"spawning: {' '.join(command)}")
        asyncio.run(session(StdioTransport(command=command[0], args=command[1:])))
        with open(outbox, encoding="utf-8") as f:
            records = [json.loads(line) for line in f.read().splitlines()]
        check("the outbox holds exactly the one send", [[r["to"], r["text"], r["subscription_id"]] for r in records],
              [["+33785880347", "Hello world", 14]])
    else:
        print("usage: fastmcp_client.py http URL TOKEN | stdio OUTBOX COMMAND...", file=sys.stderr)
        sys.exit(2)
    print("ALL PASS" if common.failures == 0 else f"{common.failures} FAILED")
    sys.exit(0 if common.failures == 0 else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
