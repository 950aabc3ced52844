import '../helpers/env.js';
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { GATED, testServer } from '../helpers/server.js';
import { worktreeOf } from '../helpers/http-kit.js';
import { eventually } from '../helpers/env.js';
import { detail, startRun } from '../helpers/steer.js';

// Issue 29, part 3: a review comment follows its line through later changes, as on a code host.
// A comment on a line read "outdated" as soon as a line was inserted above it (outdated went by
// line number). Now it stays current and moves with its line; it is outdated when its own line
// changes or goes away. The run's worktree is a real git checkout; the test edits it as an agent would.

const reviews = async (s: Awaited<ReturnType<typeof testServer>>, run: string) => (await s.get(`/api/runs/${run}/reviews`)).body.reviews as any[];

test('a comment moves with its line when lines are inserted or removed above it, and is outdated when its line changes', async (t) => {
  t.timeout(60_000);
  const s = await testServer({ workflows: { gated: GATED } });
  t.teardown(() => s.close());
  const run = await startRun(s, { goal: 'look [report:success]', workflow: 'gated' });
  await eventually(() => detail(s, run), (d) => d.phase === 'AtGate');
  const dir = await worktreeOf(s, run);
  const file = join(dir, 'notes.txt');
  writeFileSync(file, 'alpha\nbeta\ngamma\ndelta\n');
  execFileSync('git', ['add', 'notes.txt'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'notes'], { cwd: dir });

  const sent = await s.post(`/api/runs/${run}/reviews`, {
    comments: [
      { path: 'notes.txt', side: 'new', line: 2, body: 'Why beta?' },
      { path: 'notes.txt', side: 'new', line: 3, endLine: 4, body: 'These two go together.' },
    ],
  });
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.like((await reviews(s, run))[0].comments, [{ line: 2, outdated: false }, { line: 3, endLine: 4, outdated: false }]);

  // two lines inserted above (uncommitted, as an agent mid-turn leaves them): both comments move down
  writeFileSync(file, 'intro\nmore intro\nalpha\nbeta\ngamma\ndelta\n');
  t.like((await reviews(s, run))[0].comments, [{ outdated: false }, { outdated: false }], 'not outdated: only lines above them changed');
  t.like((await reviews(s, run))[0].comments, [{ line: 2, outdated: false, now: { line: 4 } }, { line: 3, endLine: 4, outdated: false, now: { line: 5, endLine: 6 } }]);

  // committed, and a line removed above: still followed
  writeFileSync(file, 'intro\nalpha\nbeta\ngamma\ndelta\n');
  execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qam', 'edit'], { cwd: dir });
  t.like((await reviews(s, run))[0].comments, [{ outdated: false, now: { line: 3 } }, { outdated: false, now: { line: 4, endLine: 5 } }]);

  // the commented line itself changes: that comment is outdated; the other, untouched, is not
  writeFileSync(file, 'intro\nalpha\nBETA\ngamma\ndelta\n');
  t.like((await reviews(s, run))[0].comments, [{ outdated: true, now: null }, { outdated: false, now: { line: 4, endLine: 5 } }]);

  // one line of a range goes away: the range comment is outdated too
  writeFileSync(file, 'intro\nalpha\nBETA\ndelta\n');
  t.like((await reviews(s, run))[0].comments, [{ outdated: true }, { outdated: true, now: null }]);
});
