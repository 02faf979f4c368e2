// Interop check: the official TypeScript MCP SDK's StdioClientTransport spawns
// `mobilemcp serve --stdio`, as a desktop agent would. It initializes, lists the tools, sends one
// SMS and gets a bad-argument error. After the server has exited, it reads the outbox and checks
// that it holds exactly the one send. Exit status: 0 when everything matches, 1 on any mismatch,
// 2 on a usage error.
//
//   node stdio_client.mjs OUTBOX mobilemcp serve --stdio --data-dir DIR
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { check, finish, sdkVersion } from './check.mjs';

if (process.argv.length < 4) {
  console.error('usage: node stdio_client.mjs OUTBOX COMMAND [ARGS...]');
  process.exit(2);
}
const [outbox, command, ...args] = process.argv.slice(2);
console.log(`node ${process.version}, @modelcontextprotocol/sdk ${sdkVersion}, spawning: ${[command, ...args].join(' ')}`);

const client = new Client({ name: 'mobilemcp-ts-stdio-interop', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
const info = client.getServerVersion();
console.log(`> initialize: server ${info.name} (${info.title}) ${info.version}`);
check('serverInfo', [info.name, info.title], ['mobilemcp', 'mobilemcp SMS']);

const { tools } = await client.listTools();
console.log(`> tools/list: ${tools.map((t) => t.name).join(', ')}`);
check('tool names', tools.map((t) => t.name).sort(), ['get_sms_subscriptions', 'send_sms']);

const sendArgs = { to_phone_number: '+33785880347', sms_text: 'Hello world', subscription_id: 14 };
const sent = await client.callTool({ name: 'send_sms', arguments: sendArgs });
console.log(`> tools/call send_sms: ${sent.content.map((c) => c.text).join(' ')}`);
check('send_sms', [sent.isError ?? false, sent.content], [false, [{ type: 'text', text: 'SMS sent to +33785880347' }]]);

const bad = await client.callTool({ name: 'send_sms', arguments: { ...sendArgs, subscription_id: 99 } });
console.log(`> tools/call send_sms subscription_id 99: isError ${bad.isError}: ${bad.content[0].text}`);
check('a bad subscription_id is a tool error', [bad.isError, bad.content[0].text.split(':')[0]], [true, 'invalid_arguments']);

await client.close();
const lines = readFileSync(outbox, 'utf8').split('\n').filter((l) => l !== '');
for (const line of lines) {
  console.log(`outbox: ${line}`);
}
check('the outbox holds exactly the one send', lines.map((l) => JSON.parse(l)).map((r) => [r.to, r.text, r.subscription_id]),
  [['+33785880347', 'Hello world', 14]]);

finish();
