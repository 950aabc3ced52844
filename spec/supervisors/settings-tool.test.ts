import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ask, supKit, textOf, type SupKit } from './kit.js';

// change_setting is the one tool whose group applies to a supervisor: listed and callable only
// while Settings > MCP has the settings group on; the change is recorded as the supervisor's, and
// like any action it waits while the supervisor is held (rule 8).

const test = anyTest as TestFn<{ k: SupKit; sp: Client }>;

test.before(async (t) => {
  const k = await supKit();
  t.context = { k, sp: await k.client(await k.key(k.sp)) };
});
test.after.always(async (t) => {
  await t.context.k?.close();
});

const group = (k: SupKit, enabled: boolean) =>
  k.s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'McpToolGroup', group: 'settings', enabled }), { 'content-type': 'application/json' });

test.serial('with the settings group on, a supervisor changes a setting, recorded with its id; held, it is refused', async (t) => {
  const { k, sp } = t.context;
  await group(k, true);
  t.true((await sp.listTools()).tools.some((x) => x.name === 'change_setting'));
  const r = await ask(sp, 'change_setting', { change: { _tag: 'TriggerPollInterval', seconds: 120 } });
  t.falsy(r.isError, textOf(r));
  t.deepEqual(r.structuredContent, { committed: { _tag: 'TriggerPollInterval', seconds: 120 } });
  const changes = (await k.s.get('/api/settings/changes')).body.changes;
  t.true(JSON.stringify(changes).includes(k.sp), JSON.stringify(changes.at?.(-1) ?? changes[0]));
  await k.patch(k.sp, { enabled: false });
  const held = await ask(sp, 'change_setting', { change: { _tag: 'TriggerPollInterval', seconds: 300 } });
  await k.patch(k.sp, { enabled: true });
  t.true(held.isError);
  t.regex(textOf(held), /switched off/);
  t.is((await k.s.get('/api/settings')).body.triggerPollSeconds, 120);
  await group(k, false);
  t.false((await sp.listTools()).tools.some((x) => x.name === 'change_setting'));
  t.regex(textOf(await ask(sp, 'change_setting', { change: { _tag: 'TriggerPollInterval', seconds: 30 } })), /settings tool group is off/);
});
