import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { pointCliAt, realCliEnv } from '../helpers/real-run.js';
import { STRICT, testServer } from '../helpers/server.js';
import { control, untilStanding } from '../helpers/steer.js';

// A review on the real claude CLI: the agent writes a file, and while its turn is still going a
// comment on one changed line is sent. The model's next request carries `path:line`, the quoted
// code and the comment; the agent rewrites that line (a scripted Write) and the review, read back,
// says the comment is outdated while a comment on an untouched line is not.

test.serial('a review on a changed line reaches the real claude CLI, and its edit makes the comment outdated', async (t) => {
  t.timeout(240_000);
  const cli = realCliEnv('claude');
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const s = await testServer({ workflows: { strict: STRICT } });
  t.teardown(() => s.close());
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Write greet.txt.', workflow: 'strict', harness: 'claude', start: false })).body.runId as string;
  const file = join(worktreeDir(s.home, runId, basename(s.repo)), 'greet.txt');
  const model = await startModelServer([
    writeFile(file, 'const greeting = "hello";\nconst target = "wrold";\n', 'Writing greet.txt.'),
    { kind: 'reply', text: 'Written.', gate },
    writeFile(file, 'const greeting = "hello";\nconst target = "world";\n', 'Fixing the typo.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'typo fixed as reviewed' }),
    say('Done.'),
  ]);
  t.teardown(() => (release(), model.close()));
  pointCliAt('claude', cli, model.url);
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  await model.waitForScripted(2);

  const sent = await s.post(`/api/runs/${runId}/reviews`, {
    comments: [
      { path: 'greet.txt', side: 'new', line: 2, body: 'Typo in the target (note 5521).' },
      { path: 'greet.txt', side: 'new', line: 1, body: 'This line is fine.' },
    ],
    summary: 'Fix the typo, nothing else.',
  });
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.like(sent.body, { delivered: true, detail: null });
  t.is(sent.body.review.comments[0].quote, 'const target = "wrold";');
  release();

  await untilStanding(s, runId, 'Succeeded', 180_000).catch(async (err: Error) => {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${err.message}\n--- run log ---\n${log}`);
  });
  const bodies = model.scriptedBodies().map((b) => JSON.stringify(b));
  t.false(bodies.slice(0, 2).some((b) => b.includes('note 5521')), 'the first requests were made before the review');
  const withReview = bodies.find((b) => b.includes('note 5521'));
  t.truthy(withReview, 'the review reached the model');
  for (const part of ['greet.txt:2', 'const target = \\"wrold\\";', 'Typo in the target (note 5521).', 'greet.txt:1', 'Fix the typo, nothing else.']) {
    t.true(withReview!.includes(part), part);
  }
  t.is(readFileSync(file, 'utf8'), 'const greeting = "hello";\nconst target = "world";\n', 'the agent\'s edit landed');

  const read = await s.get(`/api/runs/${runId}/reviews`);
  t.is(read.status, 200);
  t.like(read.body.reviews[0].comments, [{ line: 2, outdated: true }, { line: 1, outdated: false }]);
});
