import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { LINEAR } from '../helpers/server.js';
import { killHard, spawnServer } from '../helpers/child-server.js';

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => json(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const allHistory = async (url: string, runId: string) => {
  const events: any[] = [];
  let before: number | null | undefined;
  do {
    const page = await json(`${url}/api/runs/${runId}/history?pageSize=200${before ? `&before=${before}` : ''}`);
    events.unshift(...page.events);
    before = page.before;
  } while (before);
  return events;
};

test('SIGKILL in the middle of a step: no event lost, the step is recorded as interrupted and resumed, the run finishes', async (t) => {
  const home = freshHome();
  writeWorkflow(home, 'linear', LINEAR);
  const first = await spawnServer(home);
  t.teardown(() => { first.child.kill('SIGKILL'); });
  const project = await post(`${first.url}/api/projects`, { name: 'crash', folders: [{ path: gitRepo() }] });
  const others = await Promise.all([1, 2].map((i) => post(`${first.url}/api/runs`, { project: project.id, goal: `other ${i}`, workflow: 'linear', start: false })));
  const { runId } = await post(`${first.url}/api/runs`, { project: project.id, goal: '[sleepfresh:60000][write:out.txt=finished]', workflow: 'linear' });
  await eventually(() => allHistory(first.url, runId), (h) => h.some((e) => e.type === 'StepSessionStarted'));
  const before = await allHistory(first.url, runId);
  const listBefore = (await json(`${first.url}/api/runs`)).map((r: any) => r.runId).sort();

  await killHard(first);
  const second = await spawnServer(home);
  t.teardown(() => { second.child.kill('SIGKILL'); });

  const listAfter = (await json(`${second.url}/api/runs`)).map((r: any) => r.runId).sort();
  t.deepEqual(listAfter, listBefore);
  t.deepEqual(listAfter, [runId, ...others.map((o) => o.runId)].sort());
  const done = await eventually(() => json(`${second.url}/api/runs/${runId}`), (r) => r.phase === 'Ended');
  t.is(done.outcome, 'success');
  const after = await allHistory(second.url, runId);
  t.deepEqual(after.slice(0, before.length), before, 'every event recorded before the kill is still there, unchanged');
  const tail = after.slice(before.length).map((e) => e.type);
  t.is(tail[0], 'StepInterrupted');
  t.regex(after[before.length].data.reason, /service stopped/);
  t.true(tail.includes('StepStarted'));
  const restarted = after.slice(before.length).find((e) => e.type === 'StepStarted');
  t.truthy(restarted.data.resumeSession, 'the interrupted turn is resumed with its session');
  const worktree = await json(`${second.url}/api/runs/${runId}/worktree`);
  const dir = worktree.folders[0].directory;
  t.is(readFileSync(join(dir, 'out.txt'), 'utf8'), 'finished');
  t.regex(readFileSync(join(dir, '.turns.log'), 'utf8'), /fresh[\s\S]*resumed/);
});
