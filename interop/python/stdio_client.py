"""Interop check: the official Python MCP SDK's stdio client spawns `mobilemcp serve --stdio`.

It starts the command it is given, as a desktop agent would, initializes, lists the tools, sends
one SMS and gets a bad-argument error, and prints the session. After the server has exited, it
reads the outbox and checks that it holds exactly the one send. Exit status: 0 when everything
matches, 1 on any mismatch, 2 on a usage error.

    interop/python/.venv/bin/python stdio_client.py OUTBOX mobilemcp serve --stdio --data-dir DIR
"""

import asyncio
import json
import platform
import sys
from importlib.metadata import version

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import client as common  # the HTTP interop client's check(), which counts the failures
from client import check


def text(result):
    return [block.text for block in result.content]


async def session(command):
    server = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            print(f"> initialize: protocol {init.protocol_version}, server {init.server_info.name} "
                  f"({init.server_info.title}) {init.server_info.version}")
            check("serverInfo", [init.server_info.name, init.server_info.title], ["mobilemcp", "mobilemcp SMS"])

            tools = (await s.list_tools()).tools
            print(f"> tools/list: {', '.join(tool.name for tool in tools)}")
            check("tool names", sorted(tool.name for tool in tools), ["get_sms_subscriptions", "send_sms"])

            args = {"to_phone_number": "+33785880347", "sms_text": "Hello world", "subscription_id": 14}
            sent = await s.call_tool("send_sms", args)
            print(f"> tools/call send_sms {json.dumps(args)}: {text(sent)} {json.dumps(sent.structured_content)}")
            check("send_sms", [sent.is_error, text(sent)], [False, ["SMS sent to +33785880347"]])

            bad = await s.call_tool("send_sms", {"to_phone_number": "+33785880347", "sms_text": "Hello world", "subscription_id": 99})
            print(f"> tools/call send_sms subscription_id 99: isError {bad.is_error}: {text(bad)[0]}")
            check("a bad subscription_id is a tool error", [bad.is_error, text(bad)[0].split(":")[0]], [True, "invalid_arguments"])


def main(outbox, command):
    print(f"python {platform.python_version()}, mcp {version('mcp')}, spawning: {' '.join(command)}")
    asyncio.run(session(command))
    with open(outbox, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in lines:
        print(f"outbox: {line}")
    records = [json.loads(line) for line in lines]
    check("the outbox holds exactly the one send", [[r["to"], r["text"], r["subscription_id"]] for r in records],
          [["+33785880347", "Hello world", 14]])


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: stdio_client.py OUTBOX COMMAND [ARGS...]", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2:])
    print("ALL PASS" if common.failures == 0 else f"{common.failures} FAILED")
    sys.exit(0 if common.failures == 0 else 1)
