import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { startModelServer, type ModelServer } from '../fixtures/model-server/server.js';
import { callMcp, readFile, runShell, say, writeFile } from '../fixtures/model-server/script.js';
import { pointCliAt, realCliEnv } from './real-run.js';
import type { TestServer } from './server.js';
import { control } from './steer.js';

// A run on the real claude CLI whose one turn uses tools the way an agent does: it reads the
// README, writes a new file in a subfolder, runs a command with a long output, runs one that waits
// for the test (FLAG: the row stays `running` until the test creates the file), runs a failing
// command, waits for the test once more (FLAG_AGAIN), reports success. Activity tests (HTTP and
// browser) watch that turn.

export const ACTIVE = `digraph active {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}", tools=full]
  done  [kind=exit]
  start -> work
  work -> done [condition="outcome=success"]
}`;

export const FLAG = 'go.flag';
export const WAITING = `while [ ! -e ${FLAG} ]; do sleep 0.1; done; echo went`;
export const FLAG_AGAIN = 'again.flag';
export const WAITING_AGAIN = `while [ ! -e ${FLAG_AGAIN} ]; do sleep 0.1; done; echo went again`;

/** Before the server starts: the real claude CLI in temp homes instead of the scripted stand-in. */
export const useRealClaude = () => realCliEnv('claude');

export interface ActivityRun {
  readonly runId: string;
  readonly dir: string;
  readonly model: ModelServer;
  /** lets the waiting command (FLAG) or the second one (FLAG_AGAIN) finish */
  release(flag?: string): void;
}

export const startActivityRun = async (s: TestServer, title = 'Tool-using run'): Promise<ActivityRun> => {
  const created = await s.post('/api/runs', { project: s.projectId, goal: 'Look around and add a note.', title, workflow: 'active', harness: 'claude', start: false });
  const runId = created.body.runId as string;
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  const model = await startModelServer([
    readFile(join(dir, 'README.md'), 'Reading the README first.'),
    writeFile(join(dir, 'notes/todo.md'), '# todo\n- nothing yet\n'),
    runShell('seq 1 3000'),
    runShell(WAITING),
    runShell('ls does-not-exist'),
    runShell(WAITING_AGAIN),
    callMcp('report_outcome', { outcome: 'success', summary: 'note added' }),
    say('All done.'),
  ]);
  pointCliAt('claude', { root: '', env: process.env }, model.url);
  const r = await control(s, runId, 'Resume');
  if (r.body.outcome !== 'Applied') throw new Error(`start refused: ${JSON.stringify(r.body)}`);
  return { runId, dir, model, release: (flag = FLAG) => { if (!existsSync(join(dir, flag))) writeFileSync(join(dir, flag), ''); } };
};
