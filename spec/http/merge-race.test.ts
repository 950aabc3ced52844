import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { githubOrigin } from '../helpers/code-host-origin.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';

// Issue 33: 50 concurrent merges of one run. Before, several callers were told "merged" for one
// merge (fast-forward: nearly all), and squash answered git's own lock errors. Now exactly one
// is told it merged; every other is a 409 saying why, the checkout is clean and merged once.

const test = anyTest as TestFn<{ s: McpServer; repo: string }>;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

test.before(async (t) => {
  // a local bare origin, so securing the work pushes it (as in spec/http/ship.test.ts)
  const repo = githubOrigin().work;
  t.context = { s: await mcpServer({ repo }), repo };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const CALLERS = 50;

for (const method of ['fast-forward', 'merge', 'squash'] as const) {
  test.serial(`${CALLERS} concurrent ${method} merges of one run: exactly one is told it merged`, async (t) => {
    t.timeout(120_000);
    const { s, repo } = t.context;
    const runId = await startRun(s, { goal: `[write:${method}.txt=merged][report:success]`, workflow: 'two' });
    await untilStanding(s, runId, 'Succeeded');
    const secured = await s.post(`/api/runs/${runId}/secure`, {});
    t.is(secured.status, 200, JSON.stringify(secured.body));
    const before = git(repo, 'rev-parse', 'HEAD');
    const answers = await Promise.all(Array.from({ length: CALLERS }, () => s.post(`/api/runs/${runId}/merge`, { method })));
    const merged = answers.filter((a) => a.status === 200);
    t.is(merged.length, 1, JSON.stringify(answers.map((a) => [a.status, a.body.detail ?? 'merged']).slice(0, 6)));
    const others = answers.filter((a) => a.status !== 200);
    t.true(others.every((a) => a.status === 409), JSON.stringify(others.filter((a) => a.status !== 409).map((a) => [a.status, a.body])));
    for (const a of others) t.regex(String(a.body.detail), new RegExp(`^(nothing to merge: main already holds every (commit|change) of svc/${runId}; nothing was merged|a merge of run ${runId} is under way)`));
    const head = git(repo, 'rev-parse', 'HEAD');
    t.is(head, merged[0]!.body.merged[0].commit);
    t.not(head, before);
    if (method === 'merge') t.is(git(repo, 'rev-list', '--merges', '--count', `${before}..${head}`), '1', 'one merge commit, made once');
    if (method === 'squash') t.is(git(repo, 'rev-list', '--count', `${before}..${head}`), '1', 'one squash commit, made once');
    t.is(git(repo, 'status', '--porcelain'), '', 'the checkout is clean');
    t.true(existsSync(join(repo, `${method}.txt`)));
    for (const f of ['MERGE_HEAD', 'SQUASH_MSG', 'index.lock']) t.false(existsSync(join(repo, '.git', f)), f);
    const events = await history(s, runId);
    t.is(events.filter((e) => e.type === 'RunMerged').length, 1, 'recorded once');
  });
}
