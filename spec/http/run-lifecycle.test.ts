import '../helpers/env.js';
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';

test('a run goes from queued to succeeded, its agent writes in its own worktree, never in the user checkout', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const created = await s.post('/api/runs', { project: s.projectId, goal: 'make it [write:out.txt=hello]', workflow: 'linear' });
  t.is(created.status, 200, JSON.stringify(created.body));
  const runId = created.body.runId as string;
  const done = await eventually(() => s.get(`/api/runs/${runId}`), (r) => r.body.phase === 'Ended');
  t.like(done.body, { runId, workflowName: 'linear', goal: 'make it [write:out.txt=hello]', project: s.projectId, phase: 'Ended', outcome: 'success', standing: 'Succeeded' });
  const detail = await s.get(`/api/runs/${runId}/worktree`);
  t.is(detail.status, 200, JSON.stringify(detail.body));
  const dir = detail.body.folders[0].directory as string;
  t.is(readFileSync(join(dir, 'out.txt'), 'utf8'), 'hello');
  t.false(existsSync(join(s.repo, 'out.txt')));
  const list = await s.get('/api/runs');
  t.deepEqual(list.body.map((r: { runId: string }) => r.runId), [runId]);
  t.false('outcome' in list.body[0]);
});
