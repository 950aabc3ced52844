import '../helpers/env.js';
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { STRICT, testServer } from '../helpers/server.js';
import { control, startRun, untilStanding } from '../helpers/steer.js';

test('harness readiness is listed and re-checked; ChangeHarness moves a run only onto a harness that is ready', async (t) => {
  process.env['SCRIPTED_CODEX_DOWN'] = '1';
  const s = await testServer({ workflows: { strict: STRICT } });
  t.teardown(() => s.close());
  const ready = await eventually(() => s.get('/api/harnesses'), (r) => r.body.harnesses.every((h: any) => h.availability._tag !== 'Unchecked'));
  const byName = Object.fromEntries(ready.body.harnesses.map((h: any) => [h.name, h.availability._tag]));
  t.deepEqual(byName, { claude: 'Ready', codex: 'NotLoggedIn', opencode: 'Ready' });

  const runId = await startRun(s, { goal: '[quota]', workflow: 'strict', harness: 'claude' });
  // out of quota, the step waits for claude's window (docs/usage.md), and the list shows the window
  const waiting = await untilStanding(s, runId, 'Waiting');
  t.true(waiting.allowedActions.includes('ChangeHarness'));
  const claude = (await s.get('/api/harnesses')).body.harnesses.find((h: any) => h.name === 'claude');
  t.is(claude.limitedUntil, waiting.waitEndsAt);
  const refused = await control(s, runId, 'ChangeHarness', { harness: 'codex' });
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /harness codex is not available: scripted: down/);

  delete process.env['SCRIPTED_CODEX_DOWN'];
  const checked = await s.post('/api/harnesses/check');
  t.is(checked.body.harnesses.find((h: any) => h.name === 'codex').availability._tag, 'Ready');
  t.is((await control(s, runId, 'ChangeHarness', { harness: 'codex' })).body.outcome, 'Applied');
});
