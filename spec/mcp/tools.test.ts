import test from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../lib/mcp/registry.js';
import { TOOL_GROUPS } from '../../lib/settings/model.js';
import type { Standing } from '../../lib/service-api.js';
import { FakeService } from './helpers/fake-service.js';
import { FakeSettings } from './helpers/fake-settings.js';
import { connect, startServer, type TestServer } from './helpers/server.js';
import { EXAMPLES } from './helpers/examples.js';
import { call, textOf } from './helpers/call.js';

// The official SDK client against a real server: listing by group, every tool with good and bad
// arguments, and the server still answering after each bad call.

// the standing r1 needs for each tool's valid call to be taken (wait_for_run: ended, so it answers at once)
const STANDING_FOR: Readonly<Record<string, Standing>> = { archive_run: 'Failed', resolve_run: 'Failed', wait_for_run: 'Aborted', answer_question: 'Question' };

interface Ctx { srv: TestServer; client: Client; api: FakeService; settings: FakeSettings }
const setup = async (): Promise<Ctx> => {
  const api = new FakeService();
  const settings = new FakeSettings();
  const srv = await startServer(api, settings);
  return { srv, client: await connect(srv), api, settings };
};
const shared = setup();
test.after.always(async () => {
  const { srv, client } = await shared;
  await client.close();
  await srv.close();
});

test('by default tools/list shows every tool but the archiving and settings groups', async (t) => {
  const { client, srv } = await setup();
  t.teardown(async () => { await client.close(); await srv.close(); });
  const names = (await client.listTools()).tools.map((x) => x.name);
  t.deepEqual(names, TOOLS.filter((x) => x.group !== 'archiving' && x.group !== 'settings').map((x) => x.name));
  t.is(names.length, 19);
});

test('each listed tool advertises the schema derived from its codec', async (t) => {
  const { client } = await shared;
  for (const listed of (await client.listTools()).tools) {
    t.deepEqual(listed.inputSchema, TOOLS.find((x) => x.name === listed.name)?.inputSchema as unknown, listed.name);
    t.true((listed.description ?? '').length > 20);
    t.is(listed.annotations?.readOnlyHint, TOOLS.find((x) => x.name === listed.name)?.group === 'reading' ? true : undefined, listed.name);
  }
});

for (const group of TOOL_GROUPS) {
  test.serial(`group ${group} off: its tools are not listed and a call says the group is off`, async (t) => {
    const { client, settings } = await shared;
    settings.allGroups(true);
    settings.group(group, false);
    t.teardown(() => settings.allGroups(true));
    const names = (await client.listTools()).tools.map((x) => x.name);
    const inGroup = TOOLS.filter((x) => x.group === group).map((x) => x.name);
    t.deepEqual(names, TOOLS.filter((x) => x.group !== group).map((x) => x.name));
    for (const name of inGroup) {
      const res = await call(client, name, EXAMPLES[name].valid[0]);
      t.true(res.isError, name);
      t.is(textOf(res), `the ${group} tool group is off in Settings`);
    }
  });
}

test.serial('every tool answers its valid examples', async (t) => {
  const { client, api, settings } = await shared;
  settings.allGroups(true);
  for (const tool of TOOLS) {
    for (const args of EXAMPLES[tool.name].valid) {
      api.put('r1', STANDING_FOR[tool.name] ?? 'Running');
      const fixed = tool.name === 'control_run' ? { ...args, position: (api.getRun('r1') as { right: { position: string } }).right.position } : args;
      const res = await call(client, tool.name, fixed);
      t.falsy(res.isError, `${tool.name} ${JSON.stringify(fixed)}: ${textOf(res)}`);
      t.deepEqual(res.structuredContent, JSON.parse(textOf(res)), tool.name);
    }
  }
});

test.serial('every bad argument is a tool error with a clear text, and the server answers afterwards', async (t) => {
  const { client, settings } = await shared;
  settings.allGroups(true);
  for (const tool of TOOLS) {
    for (const bad of EXAMPLES[tool.name].bad) {
      const res = await call(client, tool.name, bad.args);
      t.true(res.isError, `${tool.name} ${JSON.stringify(bad.args)}`);
      t.regex(textOf(res), bad.text, `${tool.name} ${JSON.stringify(bad.args)}`);
      if (bad.shape) t.true(textOf(res).startsWith(`invalid arguments for ${tool.name}: `));
    }
  }
  t.is((await client.listTools()).tools.length, TOOLS.length);
});

test('an unknown tool is a tool error', async (t) => {
  const { client } = await shared;
  const res = await call(client, 'drop_database', {});
  t.true(res.isError);
  t.is(textOf(res), 'unknown tool: drop_database');
});
