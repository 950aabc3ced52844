import '../helpers/env.js';
import test, { type ExecutionContext } from 'ava';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { eventually, freshHome, gitRepo, sleep, writeWorkflow } from '../helpers/env.js';
import { STRICT } from '../helpers/server.js';
import { killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { pointCliAt, realCliEnv } from '../helpers/real-run.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import type { HarnessName } from '../../domain/workflow.js';

// A harness process never outlives the server that owns it. A real server (a child process) runs a
// step on each real CLI against the scripted model, which holds its answer back; the server is
// SIGKILLed mid-turn. The lifeline must end the CLI and everything it started, with no restart,
// and the answer the model then gives (a file write) must never land in the worktree.

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => json(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Proc { readonly pid: number; readonly pgid: number; readonly cwd: string; readonly cmdline: string }

const procs = (): Proc[] =>
  readdirSync('/proc').filter((p) => /^\d+$/.test(p)).flatMap((p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') return [];
      return [{ pid: Number(p), pgid: Number(rest[2]), cwd: readlinkSync(`/proc/${p}/cwd`), cmdline: readFileSync(`/proc/${p}/cmdline`, 'utf8') }];
    } catch {
      return [];
    }
  });

/** Every living process of the run: in its worktree, naming it, or in the recorded process group. */
const runProcesses = (dir: string, pgid: number | undefined): Proc[] =>
  procs().filter((p) => p.cwd.startsWith(dir) || p.cmdline.includes(dir) || (pgid !== undefined && p.pgid === pgid));

const within = <T>(p: Promise<T>, ms: number, why: () => string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(why())), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
};

const crashMidTurn = async (t: ExecutionContext, harness: HarnessName): Promise<void> => {
  t.timeout(240_000);
  const cli = realCliEnv(harness);
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const home = freshHome();
  writeWorkflow(home, 'real', STRICT);
  const repo = gitRepo();
  const model = await startModelServer([]);
  t.teardown(() => (release(), model.close()));
  pointCliAt(harness, cli, model.url);
  let server: ChildServer | undefined = await spawnServer(home);
  let dir = '/nonexistent';
  t.teardown(() => { server?.child.kill('SIGKILL'); for (const p of runProcesses(dir, undefined)) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ } });
  const project = await post(`${server.url}/api/projects`, { name: 'crash', folders: [{ path: repo }] });
  const { runId } = await post(`${server.url}/api/runs`, { project: project.id, goal: 'Write late.txt.', workflow: 'real', harness, start: false });
  dir = worktreeDir(home, runId, basename(repo));
  const late = join(dir, 'late.txt');
  // the model holds its answer (a write into the worktree) until the test lets it go
  model.push({ kind: 'reply', text: 'Writing it.', tool: { kind: 'write', path: late, content: 'too late\n' }, gate });
  const { position } = await json(`${server.url}/api/runs/${runId}/detail`);
  t.is((await post(`${server.url}/api/runs/${runId}/control`, { position, action: 'Resume' })).outcome, 'Applied');
  await within(model.waitForScripted(1), 150_000, () => `${harness} never called the model: ${server?.output()}`);
  const history = (await json(`${server.url}/api/runs/${runId}/history?pageSize=200`)).events as any[];
  const started = history.find((e) => e.type === 'StepProcessStarted');
  const pgid = started?.data.pid as number | undefined;
  t.true(runProcesses(dir, pgid).length > 0, `the ${harness} turn is running`);

  await killHard(server);
  server = undefined;
  const left = await eventually(() => runProcesses(dir, pgid), (ps) => ps.length === 0, 20_000).catch(() => runProcesses(dir, pgid));
  t.deepEqual(left.map((p) => p.cmdline.replace(/\0/g, ' ').slice(0, 120)), [], `no ${harness} process of the run outlives the server`);

  release(); // the model now answers with a file write: nobody must be left to carry it out
  await sleep(3000);
  t.false(existsSync(late), 'nothing was written into the worktree after the server died');
  t.truthy(started, 'the turn\'s process group was recorded');
  t.is(typeof started?.data.startTime, 'string');
};

test.serial('SIGKILL of the server mid-turn on the real claude CLI: the lifeline ends it', (t) => crashMidTurn(t, 'claude'));
test.serial('SIGKILL of the server mid-turn on the real codex CLI: the lifeline ends it', (t) => crashMidTurn(t, 'codex'));
test.serial('SIGKILL of the server mid-turn on the real opencode CLI: the lifeline ends it', (t) => crashMidTurn(t, 'opencode'));
