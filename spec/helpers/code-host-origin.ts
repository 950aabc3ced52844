import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './env.js';

// A project whose origin is on the code host: a real bare repository behind a GitHub-looking URL
// (git's `insteadOf` in the test's temp HOME maps one onto the other), for the tests that deliver
// a run's work and read its pull request from the GitHub fixture server.

/** the web host the GitHub fixture server answers for */
export const WEB = 'github.example';

/** a workflow that ends by delivering: push the run's branch and open a pull request */
export const SHIP = `digraph ship {
  start [kind=start]
  work [kind=agent, prompt="{{goal}}"]
  ship [kind=deliver]
  done [kind=exit]
  start -> work -> ship -> done
}`;

export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, stdio: 'pipe' }).toString().trim();

/** `work`: a checkout of `acme/app` with one commit on main, pushed to `bare`, its origin */
export const githubOrigin = (): { bare: string; work: string } => {
  const root = tempDir('svc-origin-');
  const bare = join(root, 'app.git');
  const work = join(root, 'app');
  const url = `https://${WEB}/acme/app.git`;
  git(root, 'init', '-q', '--bare', bare);
  git(root, 'config', '--global', `url.${bare}.insteadOf`, url);
  git(root, 'init', '-q', '-b', 'main', work);
  writeFileSync(join(work, 'README.md'), 'app\n');
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  git(work, 'remote', 'add', 'origin', url);
  git(work, 'push', '-q', 'origin', 'main');
  return { bare, work };
};
