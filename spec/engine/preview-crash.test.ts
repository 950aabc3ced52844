import '../helpers/env.js';
import test from 'ava';
import { eventually, freshHome, writeWorkflow } from '../helpers/env.js';
import { killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { GATE_ONLY } from '../helpers/server.js';
import { PREVIEW, previewRepo } from '../helpers/preview.js';
import { anyAlive, pidsOf, previewPids, gateRun, settled } from '../helpers/preview-runs.js';
import { portAnswers } from '../../lib/preview/ports.js';

// Nothing survives svc (issue 30): a real `svc serve` SIGKILLed with two previews up leaves no dev
// server alive (the lifeline ends each group), and after a restart both run pages say the previews stopped.

const api = (url: string) => {
  const send = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await r.text();
    let parsed: any = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, body: parsed };
  };
  return { get: (p: string) => send('GET', p), post: (p: string, b: unknown = {}) => send('POST', p, b), send };
};

test('SIGKILL of svc serve with two previews up: no preview process survives, and after a restart both say stopped', async (t) => {
  t.timeout(300_000);
  const home = freshHome();
  writeWorkflow(home, 'gate', GATE_ONLY);
  let server: ChildServer | undefined = await spawnServer(home);
  t.teardown(() => server?.child.kill('SIGKILL'));
  const first = api(server.url);
  const project = await first.post('/api/projects', { name: 'demo', folders: [{ path: previewRepo() }] });
  t.is(project.status, 200, JSON.stringify(project.body));
  const projectId = project.body.id as string;
  t.is((await first.send('PATCH', `/api/projects/${projectId}`, { preview: PREVIEW })).status, 200);
  const s1 = { ...first, projectId };
  const runs = [await gateRun(s1), await gateRun(s1)];
  for (const r of runs) t.is((await s1.post(`/api/runs/${r}/preview`)).status, 200);
  const views = [await settled(s1, runs[0]!), await settled(s1, runs[1]!)];
  t.deepEqual(views.map((v) => v.state), ['running', 'running']);
  const pids = [await previewPids(s1, runs[0]!), await previewPids(s1, runs[1]!)];
  t.true(pids.every(anyAlive));
  await killHard(server);
  await eventually(() => pids.filter(anyAlive), (left) => left.length === 0, 20_000);
  t.deepEqual(runs.flatMap(pidsOf), [], 'nothing of either preview is left in /proc');
  for (const v of views) t.false(await portAnswers(v.port), `port ${v.port} is closed`);
  server = await spawnServer(home);
  const s2 = { ...api(server.url), projectId };
  for (const r of runs) {
    const v = (await eventually(() => s2.get(`/api/runs/${r}/preview`), (x) => x.body.state === 'stopped')).body;
    t.is(v.stopReason, 'server-stopped', JSON.stringify(v));
    t.regex(v.note, /svc stopped/);
    t.is(v.url, null);
    t.is((await fetch(`${server.url}/preview/${r}/`)).status, 404);
  }
});
