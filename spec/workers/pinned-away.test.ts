import '../helpers/env.js';
import test from 'ava';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say } from '../fixtures/model-server/script.js';
import { eventually } from '../helpers/env.js';
import { joinWorkers, makeMachines } from '../helpers/worker-netns.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { control, detail, untilStanding } from '../helpers/steer.js';
import { call, json } from '../mcp/helpers/call.js';
import { mcpServer } from '../mcp/helpers/real.js';
import { closeBrowser, DESKTOP, openApp } from '../web/browser.js';
import { shot } from '../helpers/shots.js';

// A pinned step whose worker never comes back (docs/workers.md, "A pinned step whose worker is
// away"): the project runs on worker A, which joined and then died (every process of its machine
// killed). Two runs' steps wait in A's queue: each run's detail (MCP get_run, the run page in
// Chromium) says it waits for A and since when, and that Move to… frees it; the Machines list and
// page show both runs under the lost A; the run's log says so once. One run moved to worker B from
// its page ("Move to…", offered while its step waits) runs there (the model is asked from B's
// address), the other moved here over HTTP runs on the hub; both succeed, each waiting dispatch
// ended recalled, and nothing of them is left under A.

const net = makeMachines('svcp', 82, 2);
test.after.always(() => net.cleanup());
test.after.always(closeBrowser);

test('steps pinned to a worker that is away say so, show under it, and Move to… another worker or here runs them there', async (t) => {
  t.timeout(400_000);
  realCliEnv('claude');
  Object.assign(process.env, { SVC_NATS_LISTEN: `${net.hubIp}:-1`, SVC_WORKER_TTL_MS: '3000', SVC_STEP_ACK_WAIT_MS: '4000' });
  const model = await startModelServer([], net.hubIp);
  t.teardown(() => model.close());
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const s = await mcpServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());

  const { workers, ids, output } = await joinWorkers(t, net, s, model.url, { names: ['gone', 'desk'] });
  const [a, b] = ids as [string, string];
  const states = async () => Object.fromEntries(((await s.get('/api/workers')).body.workers as any[]).map((w) => [w.workerId, w.state]));
  await eventually(states, (st) => st[a] === 'online' && st[b] === 'online', 60_000).catch((e: Error) => { throw new Error(`${e.message}\n${output()}`); });
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: a }))).body.runOn, a);

  // A dies and is lost; two runs' steps go to A's queue
  workers[0]!.killAll();
  await eventually(states, (st) => st[a] === 'lost', 60_000);
  const runs: string[] = [];
  for (const goal of ['First pinned run.', 'Second pinned run.']) {
    const runId = (await s.post('/api/runs', { project: s.projectId, goal, workflow: 'real', harness: 'claude', start: false })).body.runId as string;
    t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
    runs.push(runId);
  }
  const logOf = async (runId: string) => ((await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines ?? []).map((l: any) => `${l.source} ${l.text}`).join('\n');
  const failed = (runId: string) => async (e: Error) => { throw new Error(`${e.message}\n--- run log ---\n${await logOf(runId)}\n${output()}`); };

  // each run's detail says it waits for A, since when, and what frees it
  for (const runId of runs) {
    const d = await eventually(() => detail(s, runId), (x) => x.machine?.waiting !== undefined, 60_000).catch(failed(runId));
    t.like(d, { standing: 'Running', machine: { waiting: { workerId: a, name: 'gone' } } });
    t.regex(d.machine.waiting.why, /gone is away: the step waits in its queue until it is back; Move to… another machine or here runs it there instead/);
    t.false(Number.isNaN(Date.parse(d.machine.waiting.since)));
    t.is(d.machine.waiting.stepId, s.service.core.machines.current.byRun.get(runId)?.[0]);
    const log = await logOf(runId);
    t.is(log.split(`worker ${a} is away: the step waits in its queue`).length - 1, 1, log);
  }
  // the Machines list: both under the lost A, with since when they wait
  const listed = (await s.get('/api/workers')).body;
  const rowA = listed.workers.find((w: any) => w.workerId === a);
  t.is(rowA.state, 'lost');
  t.deepEqual(rowA.runs.map((r: any) => r.runId).sort(), [...runs].sort());
  t.true(rowA.runs.every((r: any) => typeof r.waitingSince === 'string'));
  t.deepEqual(listed.workers.find((w: any) => w.workerId === b).runs, []);
  t.is(model.requests.filter((r) => r.scripted).length, 0, 'nothing ran meanwhile');
  const client = await s.connect();
  t.teardown(() => client.close());
  const got = json<{ run: { machine: any } }>(await call(client, 'get_run', { run: runs[1] }));
  t.like(got.run.machine.waiting, { workerId: a, name: 'gone' });

  // the Machines page: both runs under the lost A, each waiting since a time
  const app = await openApp(t, { viewport: DESKTOP, server: s });
  const { page } = app;
  await app.goto('/machines');
  const card = page.locator(`section.machine[data-machine="${a}"]`);
  await card.locator('li[data-waiting="yes"]').nth(1).waitFor();
  t.regex(await card.textContent() ?? '', /First pinned run\..*waiting for this machine since \d\d:\d\d:\d\d.*Second pinned run\..*waiting for this machine since/s);
  await app.axe(t, 'runs waiting under a lost machine');
  await shot(page, '/tmp/machines-waiting-desktop.png', { fullPage: true });

  // the first run's page says what it waits for, and moves it to B ("Move to…", offered while it waits)
  model.push(callMcp('report_outcome', { outcome: 'success', summary: 'done on desk' }), say('DONE-ON-DESK'));
  await app.goto(`/runs/${runs[0]}`);
  const waiting = page.locator(`.run-facts [data-waiting="${a}"]`);
  await waiting.waitFor();
  t.regex(await waiting.textContent() ?? '', /^waiting for gone since \d\d:\d\d:\d\d: it is away; Move to… runs the step elsewhere$/);
  await page.locator(`.move-to option[value="${b}"]`).waitFor({ state: 'attached' });
  await page.getByLabel('Move to').selectOption(b);
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Moved: the waiting step runs on desk now.' }).waitFor();
  await app.axe(t, 'a run moved off a lost machine');
  await untilStanding(s, runs[0]!, 'Succeeded', 200_000).catch(failed(runs[0]!));
  t.true(model.requests.filter((r) => r.scripted).every((r) => r.from === net.machines[1]!.ip), 'the moved step ran on B');
  const moved = await detail(s, runs[0]!);
  t.is(moved.machine.waiting, undefined);
  t.like(moved.machine.current, { workerId: b });
  t.regex(await logOf(runs[0]!), new RegExp(`moved to worker ${b} while its step waited for worker ${a}, which is away`));

  // the second, still waiting, moved here runs on the hub
  t.like((await detail(s, runs[1]!)).machine.waiting, { workerId: a });
  model.push(callMcp('report_outcome', { outcome: 'success', summary: 'done here' }), say('DONE-HERE'));
  t.is((await s.post(`/api/runs/${runs[1]!}/move`, { to: 'here' })).status, 200);
  await untilStanding(s, runs[1]!, 'Succeeded', 200_000).catch(failed(runs[1]!));
  t.true(model.requests.filter((r) => r.scripted).slice(2).every((r) => r.from === net.hubIp), 'the step moved here ran on the hub');
  const here = await detail(s, runs[1]!);
  t.is(here.machine.waiting, undefined);
  t.like(here.machine.current, { workerId: null });

  // each waiting dispatch ended recalled, and nothing of them is left in A's queue nor under A
  const journal = s.service.core.journal.read('dispatch').map((e) => ({ type: e.type, data: e.data as any }));
  for (const runId of runs) {
    const first = journal.find((e) => e.type === 'StepDispatched' && e.data.runId === runId)!.data.stepId;
    t.deepEqual(journal.filter((e) => e.data.stepId === first).map((e) => e.type), ['StepDispatched', 'StepAwaitingWorker', 'StepRecalled']);
  }
  t.deepEqual((await s.get('/api/workers')).body.workers.find((w: any) => w.workerId === a).runs, []);
});
