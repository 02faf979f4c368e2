// Interop check: the official TypeScript MCP SDK client (Streamable HTTP
// transport) against a running mobilemcp server on the default simulated
// phone. It initializes, lists the tools, calls both tools and a bad
// number, and checks every value exactly. Exit status: 0 when everything
// matches, 1 on any mismatch, 2 on a usage error.
//
//   node client.mjs http://127.0.0.1:9531/mcp [token]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { check, finish, sdkVersion } from './check.mjs';

if (process.argv.length < 3) {
  console.error('usage: node client.mjs URL [token]');
  process.exit(2);
}
const url = new URL(process.argv[2]);
const token = process.argv[3];
console.log(`node ${process.version}, @modelcontextprotocol/sdk ${sdkVersion}, ${url}`);

const subscriptions = {
  count: 2,
  subscriptions: [
    { subscription_id: 14, sim_slot_index: 0, carrier_name: 'Vodafone UK', display_name: 'Vodafone UK' },
    { subscription_id: 17, sim_slot_index: 1, carrier_name: 'Yettel HU', display_name: 'Yettel HU' },
  ],
};

const client = new Client({ name: 'mobilemcp-ts-interop', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(url, {
  requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
});
await client.connect(transport);
check('negotiated protocol', transport.protocolVersion, '2025-11-25');
const info = client.getServerVersion();
check('serverInfo name and title', [info.name, info.title], ['mobilemcp', 'mobilemcp SMS']);
check('capabilities', client.getServerCapabilities(), { tools: {} });

const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
check('tool names', tools.map((t) => t.name).sort(), ['get_sms_subscriptions', 'send_sms']);
const shape = (t) => ({
  required: t.inputSchema.required,
  properties: Object.fromEntries(Object.entries(t.inputSchema.properties ?? {}).map(([k, v]) => [k, v.type])),
  annotations: [t.annotations.readOnlyHint, t.annotations.destructiveHint, t.annotations.idempotentHint, t.annotations.openWorldHint],
});
check('send_sms schema and hints (readOnly, destructive, idempotent, openWorld)', shape(byName.send_sms), {
  required: ['to_phone_number', 'sms_text'],
  properties: { to_phone_number: 'string', sms_text: 'string', subscription_id: 'integer' },
  annotations: [false, true, false, true],
});
check('get_sms_subscriptions schema and hints', shape(byName.get_sms_subscriptions), {
  required: [],
  properties: {},
  annotations: [true, false, true, false],
});

// callTool also validates structuredContent against the outputSchema (ajv)
// and throws when it does not match.
const subs = await client.callTool({ name: 'get_sms_subscriptions', arguments: {} });
check('get_sms_subscriptions text', subs.content, [{ type: 'text', text: JSON.stringify(subscriptions) }]);
check('get_sms_subscriptions structuredContent', subs.structuredContent, subscriptions);
check('get_sms_subscriptions isError', subs.isError ?? false, false);

const sent = await client.callTool({
  name: 'send_sms',
  arguments: { to_phone_number: '+33785880347', sms_text: 'Hello world', subscription_id: 14 },
});
check('send_sms text', sent.content, [{ type: 'text', text: 'SMS sent to +33785880347' }]);
check('send_sms structuredContent', sent.structuredContent, {
  to_phone_number: '+33785880347', subscription_id: 14, encoding: 'gsm7', segments: 1,
});

const bad = await client.callTool({
  name: 'send_sms',
  arguments: { to_phone_number: 'not a number', sms_text: 'Hello world', subscription_id: 14 },
});
check('bad number isError', bad.isError, true);
check('bad number text', bad.content, [{
  type: 'text',
  text: 'invalid_arguments: to_phone_number "not a number" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567',
}]);
check('bad number _meta error_code', bad._meta?.['io.github.mobilemcp/error_code'], 'invalid_arguments');

try {
  await client.callTool({ name: 'send_mms', arguments: {} });
  check('unknown tool throws', 'no error', 'McpError -32602');
} catch (e) {
  check('unknown tool is a JSON-RPC error', [e.code, e.message], [-32602, 'MCP error -32602: unknown tool "send_mms"']);
}

await client.close();
finish();
