import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { callMcp, runShell, say, writeFile } from '../fixtures/model-server/script.js';
import { REAL, realCliServer } from '../helpers/real-run.js';
import { control, history, untilStanding } from '../helpers/steer.js';

// Update from base with a real conflict, handed to the real claude CLI against the scripted model
// server: svc aborts its own merge (the worktree as it was), makes a follow-up of the ended run
// saying which files conflict, and the agent does the merge itself and commits it.

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const commitAll = (cwd: string, message: string) => {
  git(cwd, 'add', '-A');
  git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', message);
};

test('a conflict updating from base is aborted cleanly and handed to the agent, which merges it itself', async (t) => {
  t.timeout(300_000);
  const { s, model } = await realCliServer(t, 'claude', { real: REAL });
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Write clash.txt.', workflow: 'real', harness: 'claude', start: false })).body.runId as string;
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  model.push(writeFile(join(dir, 'clash.txt'), 'the run\n', 'Writing.'), callMcp('report_outcome', { outcome: 'success', summary: 'written' }), say('DONE'));
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, runId, 'Succeeded', 150_000);
  commitAll(dir, 'the run\'s work');
  // meanwhile the person wrote the same file on the base branch
  const base = git(s.repo, 'symbolic-ref', '--short', 'HEAD');
  writeFileSync(join(s.repo, 'clash.txt'), 'the person\n');
  commitAll(s.repo, 'the person\'s work');
  const before = { head: git(dir, 'rev-parse', 'HEAD'), status: git(dir, 'status', '--porcelain'), file: readFileSync(join(dir, 'clash.txt'), 'utf8') };

  const asked = model.scriptedBodies().length;
  model.replace(
    runShell(`git -c user.name=t -c user.email=t@t merge ${base} >/dev/null 2>&1; printf 'both\\n' > clash.txt && git add clash.txt && git -c user.name=t -c user.email=t@t commit -q --no-edit`, 'Merging.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'conflicts resolved' }),
    say('RESOLVED'),
  );
  const r = await s.post(`/api/runs/${runId}/update-from-base`, { mode: 'merge', onConflict: 'agent' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.deepEqual(r.body.folders.map((f: any) => f.outcome), [{ _tag: 'Conflicted', files: ['clash.txt'] }]);
  const followUp = r.body.handedTo as string;
  t.truthy(followUp);
  t.not(followUp, runId, 'the run had ended: a follow-up run takes the conflict');
  t.like((await history(s, runId)).find((e) => e.type === 'BaseUpdateConflicted')?.data, { mode: 'merge', files: ['clash.txt'], handedTo: followUp });

  await untilStanding(s, followUp, 'Succeeded', 150_000);
  const request = JSON.stringify(model.scriptedBodies()[asked]);
  t.true(request.includes('Resolve these conflicts'), request.slice(0, 400));
  t.true(request.includes('clash.txt'), 'the model is told which files conflict');
  t.true(request.includes(`git merge ${base}`));
  // svc's own merge was aborted: the agent started from the worktree as it was
  t.not(before.head, git(dir, 'rev-parse', 'HEAD'));
  t.is(before.status, '');
  t.is(before.file, 'the run\n');
  t.is(readFileSync(join(dir, 'clash.txt'), 'utf8'), 'both\n');
  t.is(git(dir, 'rev-list', '--parents', '-n1', 'HEAD').split(' ').length, 3, 'the agent\'s merge commit');
  git(dir, 'merge-base', '--is-ancestor', base, 'HEAD');
});
