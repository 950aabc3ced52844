import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// Issue 27, part 1, end to end: a command step does from inside its run's folder what an agent
// could (move main, make a branch and a tag, write a pre-commit hook, commit). The person's
// repository changes in nothing but the run's own refs, which svc publishes at the step end.

const ATTEMPT = [
  'git -c user.name=agent -c user.email=agent@localhost commit -q --allow-empty -m agent-work',
  'git update-ref refs/heads/main HEAD',
  'git branch evil HEAD',
  'git tag v-evil HEAD',
  'mkdir -p .git/hooks',
  'echo exit 1 > .git/hooks/pre-commit',
  'chmod +x .git/hooks/pre-commit',
].join(' && ');

const WORKFLOW = `digraph reach {
  start [kind=start]
  reach [kind=command, command="${ATTEMPT}"]
  done [kind=exit]
  start -> reach -> done
}`;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const refs = (repo: string) => git(repo, 'for-each-ref', '--format=%(refname) %(objectname)').split('\n');
const hooks = (repo: string) => {
  const dir = join(repo, '.git', 'hooks');
  return existsSync(dir) ? Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')])) : {};
};

test("a step that moves main, makes a branch and a tag and writes a hook in its folder leaves the person's repository as it was", async (t) => {
  const s = await testServer({ workflows: { reach: WORKFLOW } });
  t.teardown(() => s.close());
  const before = { refs: refs(s.repo), hooks: hooks(s.repo), config: readFileSync(join(s.repo, '.git', 'config'), 'utf8'), main: git(s.repo, 'rev-parse', 'main') };
  const runId = await startRun(s, { goal: 'reach out', workflow: 'reach' });
  const done = await untilStanding(s, runId, 'Succeeded');
  // on a machine with bubblewrap the step ran in svc's sandbox: the run's repository committed there,
  // reading the person's objects through the one read-only path the sandbox leaves of their repository
  if (existsSync('/usr/bin/bwrap')) t.like(done.sandbox, { sandboxed: true });
  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory as string;
  const agentCommit = git(dir, 'rev-parse', 'HEAD');
  t.is(git(dir, 'rev-parse', 'main'), agentCommit, 'inside its own repository the step did move main');

  const theirs = (l: string) => !l.startsWith(`refs/heads/svc/${runId} `) && !l.startsWith(`refs/svc/snapshots/${runId}/`);
  t.deepEqual(refs(s.repo).filter(theirs), before.refs.filter(theirs), "no ref of the person's moved or appeared");
  t.is(git(s.repo, 'rev-parse', 'main'), before.main);
  t.deepEqual(hooks(s.repo), before.hooks);
  t.is(readFileSync(join(s.repo, '.git', 'config'), 'utf8'), before.config);
  // svc brought the run's branch and its step-end snapshot into the person's repository
  t.is(git(s.repo, 'rev-parse', `refs/heads/svc/${runId}`), agentCommit);
  const snap = (await history(s, runId)).find((e: { type: string }) => e.type === 'SnapshotTaken');
  t.is(git(s.repo, 'rev-parse', snap.data.ref), snap.data.commit);
});
