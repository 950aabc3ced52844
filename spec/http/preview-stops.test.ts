import '../helpers/env.js';
import test from 'ava';
import { request } from 'node:http';
import { eventually } from '../helpers/env.js';
import { GATE_ONLY, testServer, type TestServer } from '../helpers/server.js';
import { PREVIEW, previewRepo } from '../helpers/preview.js';
import { anyAlive, previewPids, gateRun, settled, stoppedView } from '../helpers/preview-runs.js';
import { control, untilStanding } from '../helpers/steer.js';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';

// What stops a preview besides Stop (docs/preview.md): its idle time on the service clock, the
// limit of previews at once (the oldest idle one goes, and the new one says so), archiving the run;
// and who may reach one: a cross-site request or a wrong Host is refused as the API refuses them.

const MIN = 60_000;

const server = async (clock?: ManualClock, limits = { idleMinutes: 1, limit: 2 }): Promise<TestServer> => {
  const s = await testServer({ workflows: { gate: GATE_ONLY }, repo: previewRepo(), ...(clock ? { clock } : {}) });
  const set = await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ preview: PREVIEW }));
  if (set.status !== 200) throw new Error(JSON.stringify(set.body));
  const put = await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Previews', ...limits }));
  if (put.status !== 200) throw new Error(JSON.stringify(put.body));
  return s;
};

const begin = async (s: TestServer, runId: string) => {
  const r = await s.post(`/api/runs/${runId}/preview`);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return settled(s, runId);
};

test('a preview with no request for its idle time is stopped; a request through svc holds the stop off', async (t) => {
  t.timeout(180_000);
  const clock = new ManualClock(new Date('2031-03-01T10:00:00.000Z'));
  const s = await server(clock);
  t.teardown(() => s.close());
  const a = await gateRun(s);
  t.is((await begin(s, a)).state, 'running');
  const pid = await previewPids(s, a);
  const started = clock.now().getTime();
  clock.set(new Date(started + 0.8 * MIN));
  t.is((await fetch(`${s.url}/preview/${a}/`)).status, 200, 'a request at 0.8 min');
  clock.set(new Date(started + 1.5 * MIN)); // past start + 1 min, not past the request + 1 min
  await new Promise((r) => setTimeout(r, 500));
  t.is((await s.get(`/api/runs/${a}/preview`)).body.state, 'running', 'the request held the idle stop off');
  clock.set(new Date(started + 1.9 * MIN));
  const v = await stoppedView(s, a);
  t.is(v.stopReason, 'idle');
  t.regex(v.note, /idle time/);
  t.is(v.path, null);
  await eventually(() => anyAlive(pid), (x) => !x);
  t.is((await fetch(`${s.url}/preview/${a}/`)).status, 404);
  const log = (await s.get(`/api/runs/${a}/log?pageSize=200`)).body.lines as { text: string }[];
  t.true(log.some((l) => l.text.includes('preview stopped: idle (1 min without a request)')));
});

test('past the limit the oldest idle preview is stopped, and the new one says which', async (t) => {
  t.timeout(240_000);
  const clock = new ManualClock(new Date('2031-03-01T10:00:00.000Z'));
  const s = await server(clock, { idleMinutes: 60, limit: 2 });
  t.teardown(() => s.close());
  const [a, b, c] = [await gateRun(s), await gateRun(s), await gateRun(s)];
  const t0 = clock.now().getTime();
  t.is((await begin(s, a)).state, 'running');
  clock.set(new Date(t0 + 1000));
  t.is((await begin(s, b)).state, 'running');
  const pidB = await previewPids(s, b);
  clock.set(new Date(t0 + 2000));
  t.is((await fetch(`${s.url}/preview/${a}/`)).status, 200, 'a is used after b started: b is now the oldest idle');
  clock.set(new Date(t0 + 3000));
  const started = await s.post(`/api/runs/${c}/preview`);
  t.is(started.status, 200);
  t.regex(started.body.note, new RegExp(`Stopped the preview of “preview me” \\(run ${b}\\), the oldest idle one, to stay within 2 at once`));
  const vb = (await s.get(`/api/runs/${b}/preview`)).body;
  t.is(vb.state, 'stopped');
  t.is(vb.stopReason, 'limit');
  t.regex(vb.note, /to make room/);
  await eventually(() => anyAlive(pidB), (x) => !x); // its server is gone (in a sandbox, a moment after bubblewrap)
  t.is((await settled(s, c)).state, 'running');
  t.is((await s.get(`/api/runs/${a}/preview`)).body.state, 'running', 'the used one goes on');
});

test('the run ending leaves a person\'s preview up; archiving the run stops its preview and ends its server', async (t) => {
  t.timeout(180_000);
  const s = await server();
  t.teardown(() => s.close());
  const a = await gateRun(s);
  t.is((await begin(s, a)).state, 'running');
  const pid = await previewPids(s, a);
  t.is((await control(s, a, 'Abort')).status, 200);
  await untilStanding(s, a, 'Aborted');
  t.is((await s.get(`/api/runs/${a}/preview`)).body.state, 'running', 'a preview a person started outlives the run');
  const archived = await s.post(`/api/runs/${a}/archive`, { state: 'Archived' });
  t.is(archived.status, 200, JSON.stringify(archived.body));
  const v = await stoppedView(s, a);
  t.is(v.stopReason, 'archived');
  t.regex(v.note, /archived/);
  await eventually(() => anyAlive(pid), (x) => !x);
  const again = await s.post(`/api/runs/${a}/preview`);
  t.is(again.status, 409);
  t.regex(again.body.detail, /archived/);
});

const raw = (url: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string }> => new Promise((resolve, reject) => {
  const u = new URL(url);
  const req = request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
    let body = '';
    res.on('data', (c) => (body += c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
  });
  req.on('error', reject);
  req.end();
});

test('a cross-site request or a wrong Host to /preview/… is refused with a detail; same-origin passes', async (t) => {
  t.timeout(180_000);
  const s = await server();
  t.teardown(() => s.close());
  const a = await gateRun(s);
  t.is((await begin(s, a)).state, 'running');
  const host = new URL(s.url).host;
  const path = `/preview/${a}/page`;
  t.is((await raw(s.url, path, { host, 'sec-fetch-site': 'same-origin' })).status, 200);
  for (const [name, headers, method] of [
    ['a cross-site read (Sec-Fetch-Site)', { host, 'sec-fetch-site': 'cross-site' }, 'GET'],
    ['a cross-site frame load', { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' }, 'GET'],
    ['a cross-site POST by Origin', { host, origin: 'http://evil.example' }, 'POST'],
    ['a wrong Host', { host: 'evil.example' }, 'GET'],
    ['a wrong Host with the right port', { host: `evil.example:${new URL(s.url).port}` }, 'GET'],
  ] as const) {
    const r = await raw(s.url, path, headers, method);
    t.true(r.status === 403 || r.status === 421 || r.status === 400, `${name}: ${r.status}`);
    t.truthy(JSON.parse(r.body).detail, name);
    t.false(r.body.includes('Page of'), `${name}: the page is not in the answer`);
  }
});
