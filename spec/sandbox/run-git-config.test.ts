import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testServer } from '../helpers/server.js';
import { startRun, untilStanding } from '../helpers/steer.js';

// svc runs git in a run's own repository outside the sandbox (step end snapshot and publish, the
// worktree view, secure, merge). A step tries to plant what would make that git run a program: a
// config key, a hook, a whole .git of its own, a `.git/commondir` naming a config of its own. The
// sandbox refuses the first three; svc's own git then runs none of what was planted.

const PLANT = `d=$(pwd)
{ git config core.fsmonitor "touch $d/PWNED-config"; echo "config:$?"
  printf '#!/bin/sh\\ntouch %s/PWNED-hook\\n' "$d" > .git/hooks/post-commit; echo "hook:$?"
  mv .git .git-moved; echo "move:$?"
  mkdir -p .evil/hooks && cp -r .git/refs .git/objects .git/HEAD .evil/
  printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch %s/PWNED-fsmonitor"\\n\\thooksPath = %s/.evil/hooks\\n' "$d" "$d" > .evil/config
  for h in pre-commit post-commit post-checkout reference-transaction pre-auto-gc; do printf '#!/bin/sh\\ntouch %s/PWNED-%s\\n' "$d" "$h" > .evil/hooks/$h; chmod +x .evil/hooks/$h; done
  echo "$d/.evil" > .git/commondir; echo "commondir:$?"
} > attempts.txt 2>&1
echo changed > changed.txt
`;

const WORKFLOW = `digraph plant {
  start [kind=start]
  plant [kind=command, command="sh plant.sh"]
  done [kind=exit]
  start -> plant -> done
}`;

const pwned = (dir: string): string[] => readdirSync(dir).filter((f) => f.startsWith('PWNED'));

test('a step cannot plant git config or hooks in its run\'s repository, and svc\'s git there runs nothing it planted', async (t) => {
  const s = await testServer({ workflows: { plant: WORKFLOW } });
  t.teardown(() => s.close());
  writeFileSync(join(s.repo, 'plant.sh'), PLANT);
  execFileSync('git', ['add', 'plant.sh'], { cwd: s.repo });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'plant'], { cwd: s.repo });
  const runId = await startRun(s, { goal: 'plant', workflow: 'plant' });
  const done = await untilStanding(s, runId, 'Succeeded');
  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory as string;
  const attempts = readFileSync(join(dir, 'attempts.txt'), 'utf8');
  t.true(attempts.includes('commondir:0'), attempts);
  if (existsSync('/usr/bin/bwrap')) {
    t.like(done.sandbox, { sandboxed: true });
    t.regex(attempts, /config:[1-9]/, 'the run\'s .git/config is read-only in the sandbox');
    t.regex(attempts, /hook:[1-9]/, 'its hooks folder too');
    t.regex(attempts, /move:[1-9]/, 'and its .git cannot be swapped for another');
    t.false(existsSync(join(dir, '.git-moved')));
  }
  // svc's git in the folder after the step: the step end (snapshot, publish), the worktree view, a secure
  const view = await s.get(`/api/runs/${runId}/worktree`);
  t.is(view.status, 200);
  t.true(view.body.folders[0].uncommitted.untracked >= 2, 'svc read the run\'s own repository');
  t.deepEqual(pwned(dir), [], 'nothing planted ran');
});
