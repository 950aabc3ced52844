import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../../lib/cli/serve.js';
import { ensureToken } from '../../../lib/auth/mcp-token.js';
import { tempHome } from './temp-home.js';

// The real server (`svc serve` on 127.0.0.1:0) with one project: a git repository holding a
// project workflow `gate` (start -> gate -> exit), so a run stops Paused without any agent turn.

export const GATE_WORKFLOW = `digraph gate {
  description="Stop at a gate for a person, then end."
  start [kind=start]
  hold  [kind=gate, label="Hold here"]
  done  [kind=exit]
  start -> hold -> done
}
`;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' });

export const gitRepo = (root: string): string => {
  const repo = join(root, 'demo');
  mkdirSync(join(repo, '.svc', 'workflows'), { recursive: true });
  writeFileSync(join(repo, 'README.md'), 'demo\n');
  writeFileSync(join(repo, '.svc', 'workflows', 'gate.dot'), GATE_WORKFLOW);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'add', '.');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'init');
  return repo;
};

export interface Live {
  readonly server: RunningServer;
  readonly home: string;
  readonly projectId: string;
  readonly token: string;
}

export const startLive = async (): Promise<Live> => {
  const home = tempHome('svc-mcp-live-');
  const repo = gitRepo(home);
  const server = await startServer({ home, port: 0, bind: '127.0.0.1' });
  const added = await server.service.addProject('Demo', [{ path: repo }]);
  if (added._tag === 'Left') throw new Error(`project not added: ${JSON.stringify(added.left)}`);
  return { server, home, projectId: added.right.id, token: ensureToken(home) };
};
