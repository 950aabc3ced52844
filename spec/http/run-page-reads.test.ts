import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRunDiff } from '../../lib/git/run-diff.js';
import { gitRepo } from '../helpers/env.js';
import { GATED, testServer } from '../helpers/server.js';
import { startRun } from '../helpers/steer.js';

// The run page's own reads: the run's workflow (source, nodes, current step, Jump's targets), the
// diff of its worktree against its base (new, changed and committed files; capped), and the export
// as a download.

test('the workflow, the diff and the export of a run, over HTTP', async (t) => {
  const s = await testServer({ workflows: { gated: GATED } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[write:new.txt=<script>alert(1)</script>] [write:README.md=changed]', workflow: 'gated' });
  const paused = async () => (await s.get(`/api/runs/${runId}/detail`)).body.standing === 'Paused';
  for (let i = 0; i < 400 && !(await paused()); i++) await new Promise((r) => setTimeout(r, 50));

  const wf = await s.get(`/api/runs/${runId}/workflow`);
  t.is(wf.status, 200, JSON.stringify(wf.body));
  t.is(wf.body.name, 'gated');
  t.regex(wf.body.source, /digraph gated/);
  t.is(wf.body.current, 'review');
  t.deepEqual(wf.body.jumpTargets, ['work', 'review', 'done']);
  t.deepEqual(wf.body.nodes.map((n: { id: string; kind: string }) => `${n.id}:${n.kind}`), ['start:start', 'work:agent', 'review:gate', 'done:exit']);

  const d = await s.get(`/api/runs/${runId}/diff`);
  t.is(d.status, 200, JSON.stringify(d.body));
  t.is(d.body.folders.length, 1);
  const f = d.body.folders[0];
  t.false(f.truncated);
  t.regex(f.base, /^[0-9a-f]{40}$/);
  t.regex(f.diff, /diff --git a\/README\.md b\/README\.md[\s\S]*-# test\n\+changed/);
  t.regex(f.diff, /diff --git a\/new\.txt b\/new\.txt\nnew file mode[\s\S]*\+<script>alert\(1\)<\/script>/);

  const e = await fetch(`${s.url}/api/runs/${runId}/export`);
  t.is(e.status, 200);
  t.regex(e.headers.get('content-disposition') ?? '', new RegExp(`attachment; filename="${runId}.jsonl"`));
  const lines = (await e.text()).trim().split('\n').map((l) => JSON.parse(l));
  t.is(lines[0].kind, 'run');
  t.true(lines.some((l) => l.kind === 'event' && l.type === 'RunCreated'));
});

test('unknown runs are 404, a run without a worktree is 409, with a detail', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const created = await startRun(s, { goal: 'later', workflow: 'linear', start: false });
  for (const path of ['workflow', 'diff', 'export']) {
    const r = await s.get(`/api/runs/r-none/${path}`);
    t.is(r.status, 404, path);
    t.regex(r.body.detail, /r-none/);
  }
  const d = await s.get(`/api/runs/${created}/diff`);
  t.is(d.status, 409);
  t.regex(d.body.detail, /no worktree/);
  t.is((await s.get(`/api/runs/${created}/workflow`)).body.current, null, 'a run not started is at no step yet');
});

test('the diff counts commits on the branch and is cut at the cap at a file boundary', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  writeFileSync(join(repo, 'a.txt'), 'A\n');
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'change a'], { cwd: repo });
  writeFileSync(join(repo, 'b.txt'), `${'x'.repeat(5000)}\n`);
  writeFileSync(join(repo, 'c.txt'), 'c\n');
  const checkout = { folder: 'main', path: repo, directory: repo, branch: 'svc/r1', base };
  const [whole] = await readRunDiff([checkout]);
  t.false('detail' in whole!);
  const w = whole as { diff: string; truncated: boolean };
  t.false(w.truncated);
  t.regex(w.diff, /a\/a\.txt[\s\S]*-a\n\+A/);
  t.regex(w.diff, /b\/c\.txt/);
  const [cut] = await readRunDiff([checkout], 1000);
  const c = cut as { diff: string; truncated: boolean };
  t.true(c.truncated);
  t.regex(c.diff, /a\/a\.txt/);
  t.notRegex(c.diff, /b\.txt|c\.txt/);
  const [gone] = await readRunDiff([{ ...checkout, directory: join(repo, 'nope') }]);
  t.regex((gone as { detail: string }).detail, /does not exist/);
});
