"""Interop check: the official Python MCP SDK client (Streamable HTTP).

It runs against a running mobilemcp server on the default simulated phone
that was started with a token. It initializes, lists the tools, calls both
tools, a bad number and an unknown tool, and checks every value exactly.
Then it connects again with a wrong token, prints what the SDK raises, and
checks that the message tells the user the token is wrong. Exit status: 0
when everything matches, 1 on any mismatch, 2 on a usage error.

    interop/python/.venv/bin/python client.py http://127.0.0.1:9531/mcp TOKEN
"""

import asyncio
import json
import platform
import sys
from importlib.metadata import version

import httpx2
from mcp import ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client

SUBSCRIPTIONS = {
    "count": 2,
    "subscriptions": [
        {"subscription_id": 14, "sim_slot_index": 0, "carrier_name": "Vodafone UK", "display_name": "Vodafone UK"},
        {"subscription_id": 17, "sim_slot_index": 1, "carrier_name": "Yettel HU", "display_name": "Yettel HU"},
    ],
}

# What the server answers a wrong token with: HTTP 401 and this JSON-RPC
# error, which the SDK raises as an MCPError.
WRONG_TOKEN_CODE = -32001
WRONG_TOKEN_MESSAGE = (
    "Unauthorized: wrong token: it is not the one this server was started with; "
    "copy it again (the phone app makes a new one each time its server is turned on)"
)

failures = 0


def check(what, got, want):
    """Compares as JSON, so that 1 and True or 1 and 1.0 differ, and prints the outcome."""
    global failures
    if json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True):
        print(f"ok   {what}")
    else:
        failures += 1
        print(f"FAIL {what}\n     got  {json.dumps(got)}\n     want {json.dumps(want)}")


def content(result):
    """The result's content blocks as they are on the wire."""
    return [block.model_dump(by_alias=True, mode="json", exclude_none=True) for block in result.content]


def shape(tool):
    """A tool's required list, property types and the four hints."""
    schema = tool.input_schema
    hints = tool.annotations
    return {
        "required": schema.get("required"),
        "properties": {name: p.get("type") for name, p in schema.get("properties", {}).items()},
        "annotations": [hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint, hints.open_world_hint],
    }


def leaves(error):
    """The exceptions inside error's exception groups (anyio's task groups wrap what they raise)."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]
    return [error]


def name(error):
    return f"{type(error).__module__}.{type(error).__qualname__}"


async def session_checks(url, token):
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                check("negotiated protocol", session.protocol_version, "2025-11-25")
                info = session.server_info
                check("serverInfo name and title", [info.name, info.title], ["mobilemcp", "mobilemcp SMS"])
                check(
                    "capabilities",
                    session.server_capabilities.model_dump(by_alias=True, mode="json", exclude_none=True),
                    {"tools": {}},
                )

                tools = (await session.list_tools()).tools
                by_name = {tool.name: tool for tool in tools}
                check("tool names", sorted(by_name), ["get_sms_subscriptions", "send_sms"])
                if sorted(by_name) != ["get_sms_subscriptions", "send_sms"]:
                    return
                check(
                    "send_sms schema and hints (readOnly, destructive, idempotent, openWorld)",
                    shape(by_name["send_sms"]),
                    {
                        "required": ["to_phone_number", "sms_text"],
                        "properties": {"to_phone_number": "string", "sms_text": "string", "subscription_id": "integer"},
                        "annotations": [False, True, False, True],
                    },
                )
                check(
                    "get_sms_subscriptions schema and hints",
                    shape(by_name["get_sms_subscriptions"]),
                    {"required": [], "properties": {}, "annotations": [True, False, True, False]},
                )

                # call_tool also validates a successful result's structured_content
                # against the outputSchema from tools/list and raises when it does
                # not match.
                subs = await session.call_tool("get_sms_subscriptions", {})
                check(
                    "get_sms_subscriptions text",
                    content(subs),
                    [{"type": "text", "text": json.dumps(SUBSCRIPTIONS, separators=(",", ":"))}],
                )
                check("get_sms_subscriptions structuredContent", subs.structured_content, SUBSCRIPTIONS)
                check("get_sms_subscriptions isError", subs.is_error, False)

                sent = await session.call_tool(
                    "send_sms",
                    {"to_phone_number": "+33785880347", "sms_text": "Hello world", "subscription_id": 14},
                )
                check("send_sms text", content(sent), [{"type": "text", "text": "SMS sent to +33785880347"}])
                check(
                    "send_sms structuredContent",
                    sent.structured_content,
                    {"to_phone_number": "+33785880347", "subscription_id": 14, "encoding": "gsm7", "segments": 1},
                )
                check("send_sms isError", sent.is_error, False)

                bad = await session.call_tool(
                    "send_sms",
                    {"to_phone_number": "not a number", "sms_text": "Hello world", "subscription_id": 14},
                )
                check("bad number isError", bad.is_error, True)
                check(
                    "bad number text",
                    content(bad),
                    [
                        {
                            "type": "text",
                            "text": 'invalid_arguments: to_phone_number "not a number" is not an international number: '
                            "write + then the country code and number, 7 to 15 digits in all, for example +36201234567",
                        }
                    ],
                )
                check("bad number _meta error_code", (bad.meta or {}).get("io.github.mobilemcp/error_code"), "invalid_arguments")

                try:
                    await session.call_tool("send_mms", {})
                    check("unknown tool raises", "no error", "MCPError -32602")
                except MCPError as e:
                    check("unknown tool is a JSON-RPC error", [e.code, str(e)], [-32602, 'unknown tool "send_mms"'])


async def wrong_token_checks(url, token):
    """Connects with a token that is not the server's, as a user who copied an old one would."""
    wrong = "not-" + token
    try:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {wrong}"}) as http:
            async with streamable_http_client(url, http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
        check("a wrong token is refused", "connected", "an error")
        return
    except Exception as e:  # what reaches a program that does not catch it
        raised = e
    print(f"wrong token: raised {name(raised)}: {raised}")
    inner = leaves(raised)
    for leaf in inner:
        print(f"  {name(leaf)}: {leaf}" + (f" (code {leaf.code})" if isinstance(leaf, MCPError) else ""))
    check("wrong token: one error inside", [name(leaf) for leaf in inner], ["mcp.shared.exceptions.MCPError"])
    if len(inner) == 1 and isinstance(inner[0], MCPError):
        check("wrong token: the error's code and message", [inner[0].code, str(inner[0])], [WRONG_TOKEN_CODE, WRONG_TOKEN_MESSAGE])
        check("wrong token: the message says the token is wrong", "wrong token" in str(inner[0]), True)


async def main(url, token):
    print(f"python {platform.python_version()}, mcp {version('mcp')}, {url}")
    await session_checks(url, token)
    await wrong_token_checks(url, token)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: client.py URL TOKEN", file=sys.stderr)
        sys.exit(2)
    asyncio.run(main(sys.argv[1], sys.argv[2]))
    print("ALL PASS" if failures == 0 else f"{failures} FAILED")
    sys.exit(0 if failures == 0 else 1)
