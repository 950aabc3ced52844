import '../helpers/env.js';
import test from 'ava';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/env.js';
import { GATE_ONLY, testServer, type TestServer } from '../helpers/server.js';
import { PREVIEW, previewRepo } from '../helpers/preview.js';
import { wsEcho } from '../helpers/ws-client.js';
import { groupMembers } from '../../lib/harness/process-group.js';
import { pidsOf } from '../helpers/preview-runs.js';

// Previews through a real server: the project's command runs in each run's worktree on its own
// port, reached through svc's origin at /preview/<runId>/, with WebSockets, Stop and the rules.

const startRun = async (s: TestServer): Promise<string> => {
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'preview me', workflow: 'gate' });
  await eventually(() => s.get(`/api/runs/${r.body.runId}`), (x) => x.body.phase === 'AtGate', 60_000);
  return r.body.runId as string;
};

const running = (s: TestServer, runId: string) =>
  eventually(() => s.get(`/api/runs/${runId}/preview`), (r) => r.body.state === 'running' || r.body.state === 'stopped', 60_000);

const server = async (): Promise<TestServer> => {
  const s = await testServer({ workflows: { gate: GATE_ONLY }, repo: previewRepo() });
  const set = await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ preview: PREVIEW }));
  if (set.status !== 200) throw new Error(JSON.stringify(set.body));
  return s;
};

test('two runs preview at once on two ports, each page through svc, WebSocket echo passes, Stop ends the group', async (t) => {
  t.timeout(180_000);
  const s = await server();
  t.teardown(() => s.close());
  const [a, b] = [await startRun(s), await startRun(s)];
  t.is((await s.post(`/api/runs/${a}/preview`)).status, 200);
  t.is((await s.post(`/api/runs/${b}/preview`)).status, 200);
  const [pa, pb] = [(await running(s, a)).body, (await running(s, b)).body];
  t.is(pa.state, 'running', JSON.stringify(pa));
  t.is(pb.state, 'running');
  t.not(pa.port, pb.port);
  t.is(pa.path, `/preview/${a}/`);
  t.deepEqual(pa.command, { ...PREVIEW, portEnv: 'PORT', from: 'setting' });
  const pageA = await (await fetch(`${s.url}/preview/${a}/hello?x=1`)).text();
  const pageB = await (await fetch(`${s.url}/preview/${b}/`)).text();
  t.true(pageA.includes(a) && !pageA.includes(b), pageA);
  t.true(pageB.includes(b) && !pageB.includes(a), pageB);
  t.true(pageA.includes('<p id="path">/hello?x=1</p>'), 'the prefix is taken off, the query kept');
  t.true(pageA.includes('setup ran 1'));
  const ws = await wsEcho(`${s.url}/preview/${a}/ws`, 'hi');
  t.true(ws.status.includes('101'));
  t.is(ws.reply, `echo:hi@${pageA.match(/Page of ([^<]+)</)![1]}`);
  const record = s.service.previews;
  void record;
  const stopped = await s.send('DELETE', `/api/runs/${a}/preview`);
  t.is(stopped.status, 200);
  t.is(stopped.body.state, 'stopped');
  t.is(stopped.body.stopReason, 'stopped');
  t.is((await fetch(`${s.url}/preview/${a}/`)).status, 404);
  t.is((await fetch(`${s.url}/preview/${b}/`)).status, 200, 'the other preview goes on');
  // setup runs once per folder: a second start does not run it again (the lockfile is the same)
  await s.post(`/api/runs/${a}/preview`);
  await running(s, a);
  t.true((await (await fetch(`${s.url}/preview/${a}/`)).text()).includes('setup ran 1'));
  // and again when the folder's lockfile changed since
  const runDir = join(s.home, 'worktrees', a);
  writeFileSync(join(runDir, readdirSync(runDir)[0]!, 'package-lock.json'), '{"lockfileVersion":3,"changed":true}\n');
  t.is((await s.send('DELETE', `/api/runs/${a}/preview`)).status, 200);
  await s.post(`/api/runs/${a}/preview`);
  await running(s, a);
  t.true((await (await fetch(`${s.url}/preview/${a}/`)).text()).includes('setup ran 2'));
  const log = (await s.get(`/api/runs/${a}/log?pageSize=200`)).body.lines as { text: string }[];
  t.true(log.some((l) => l.text.includes('fixture app listening')), 'the server output is in the run log');
  // in svc's sandbox (bubblewrap leads the group) where this machine has one, as a command step is
  const leaders = pidsOf(a).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!);
  t.true(leaders.some((c) => c.endsWith('bwrap')), `a bubblewrap around the preview: ${leaders.join(', ')}`);
  t.false(log.some((l) => l.text.includes("runs outside svc's sandbox")));
});

test('.svc/preview.json in the primary folder is the fallback; without either, start is refused with a detail', async (t) => {
  t.timeout(120_000);
  const s = await testServer({ workflows: { gate: GATE_ONLY }, repo: previewRepo({ '.svc/preview.json': JSON.stringify({ argv: ['node', 'app.mjs'], portEnv: 'PORT' }) }) });
  t.teardown(() => s.close());
  const a = await startRun(s);
  const v = (await s.get(`/api/runs/${a}/preview`)).body;
  t.is(v.state, 'off');
  t.deepEqual(v.command, { argv: ['node', 'app.mjs'], setup: null, portEnv: 'PORT', from: 'file' });
  await s.post(`/api/runs/${a}/preview`);
  t.is((await running(s, a)).body.state, 'running');
  t.is((await fetch(`${s.url}/preview/${a}/`)).status, 200);
  const none = await testServer({ workflows: { gate: GATE_ONLY } });
  t.teardown(() => none.close());
  const b = await startRun(none);
  const refused = await none.post(`/api/runs/${b}/preview`);
  t.is(refused.status, 400);
  t.regex(refused.body.detail, /no preview command/);
  void groupMembers; void readFileSync; void join;
});

test('with the project\'s sandbox off the preview runs outside it, on its loopback port, and says so', async (t) => {
  t.timeout(120_000);
  const s = await server();
  t.teardown(() => s.close());
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ sandbox: 'off' }))).status, 200);
  const a = await startRun(s);
  await s.post(`/api/runs/${a}/preview`);
  const v = (await running(s, a)).body;
  t.is(v.state, 'running');
  const page = await (await fetch(`${s.url}/preview/${a}/direct`)).text();
  t.true(page.includes('<p id="path">/direct</p>'), page);
  t.true((await (await fetch(`http://127.0.0.1:${v.port}/`)).text()).includes('Page of'), 'the port answers on svc\'s own loopback');
  const leaders = pidsOf(a).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!);
  t.false(leaders.some((c) => c.endsWith('bwrap')), leaders.join(', '));
  const log = (await s.get(`/api/runs/${a}/log?pageSize=200`)).body.lines as { text: string }[];
  t.true(log.some((l) => l.text.includes("preview: runs outside svc's sandbox")));
});

