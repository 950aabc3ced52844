import '../helpers/env.js';
import test from 'ava';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { startModelServer, type ModelServer } from '../fixtures/model-server/server.js';
import { hang, runShell, say } from '../fixtures/model-server/script.js';
import { CLI } from '../helpers/cli.js';
import { eventually, repoRoot, tempDir } from '../helpers/env.js';
import { spawnGroup } from '../helpers/process-groups.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { control, history, untilStanding } from '../helpers/steer.js';

// The hub steering a turn that runs on a worker (docs/workers.md), as a user meets it: a real
// nats-server, the hub on an ephemeral port, `svc worker join` in a network namespace of its own
// (a veth pair, its own addresses; the hub's home hidden), the real claude there against the
// scripted model server over the veth. A message sent mid-turn reaches the model; an abort ends
// the CLI on the worker; a partition (the link down while the turn runs, then up) makes the hub
// record the lease lapsed, the worker stop its CLI when its renewal is refused, the late result be
// recorded discarded, and the step run again from its start there: one commit on the branch.

const n = process.pid % 250;
const NS = `svcf${process.pid}`;
const HUB_IF = `svfh${process.pid}`;
const WORKER_IF = `svfw${process.pid}`;
const HUB_IP = `10.79.${n}.1`;
const WORKER_IP = `10.79.${n}.2`;

// the step commits with git (a Bash command claude asks approval for below full)
const FULL = REAL.replace('prompt="{{goal}}"', 'prompt="{{goal}}", tools=full');

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

interface World { s: TestServer; model: ModelServer; worker: { child: ChildProcess; output: () => string }; workerId: string }
let world: World | undefined;

test.before(async () => {
  ip('netns', 'add', NS);
  ip('link', 'add', HUB_IF, 'type', 'veth', 'peer', 'name', WORKER_IF);
  ip('link', 'set', WORKER_IF, 'netns', NS);
  ip('addr', 'add', `${HUB_IP}/30`, 'dev', HUB_IF);
  ip('link', 'set', HUB_IF, 'up');
  ip('netns', 'exec', NS, 'ip', 'addr', 'add', `${WORKER_IP}/30`, 'dev', WORKER_IF);
  ip('netns', 'exec', NS, 'ip', 'link', 'set', WORKER_IF, 'up');
  ip('netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up');
  realCliEnv('claude');
  Object.assign(process.env, { SVC_NATS_LISTEN: `${HUB_IP}:-1`, SVC_STEP_ACK_WAIT_MS: '6000' });
  const s = await testServer({ workflows: { real: REAL, full: FULL } });
  const model = await startModelServer([], HUB_IP);
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const made = await s.post('/api/workers/tokens', { name: 'steered-box' });
  const { token, hub } = made.body as { token: string; hub: string };
  const workerId = token.split('.')[0]!;
  const worker = startWorker(dirname(s.home), hub, token, model.url);
  world = { s, model, worker, workerId };
  await eventually(() => s.get('/api/workers'), (r) => r.body.workers.some((w: any) => w.workerId === workerId && w.state === 'online'), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: workerId }));
});

test.after.always(async () => {
  await world?.model.close();
  await world?.s.close();
  try { ip('netns', 'del', NS); } catch { /* gone */ }
  try { ip('link', 'del', HUB_IF); } catch { /* went with the namespace */ }
});

/** `svc worker join` inside the namespace, its own HOME, the hub's home hidden under an empty folder */
const startWorker = (hubHome: string, url: string, token: string, modelUrl: string) => {
  const home = tempDir('svc-worker-home-');
  const cover = tempDir('svc-worker-root-');
  const env = { ...process.env, HOME: home, SVC_HOME: join(home, '.svc'), ANTHROPIC_BASE_URL: modelUrl, ANTHROPIC_API_KEY: 'sk-test', NO_PROXY: `127.0.0.1,localhost,${HUB_IP}` };
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const child: ChildProcess = spawnGroup('ip', ['netns', 'exec', NS, 'unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, ...CLI, 'worker', 'join', url, token, '--slots', '1'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { child, output: () => out };
};

const parentOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
const commandOf = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');

/** the claude processes the worker started (its descendants: a sandboxed CLI has a network namespace of its own) */
const workerClis = (root: number): number[] => {
  const parents = new Map<number, number>();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try { parents.set(Number(d), parentOf(Number(d))); } catch { /* gone */ }
  }
  const under = (pid: number): boolean => { for (let p = parents.get(pid); p; p = parents.get(p)) if (p === root) return true; return false; };
  return [...parents.keys()].filter((pid) => under(pid)).filter((pid) => { try { return /claude/.test(commandOf(pid)); } catch { return false; } });
};
// a zombie (exited, not yet reaped by its parent) is not running
const alive = (pid: number): boolean => {
  try { return !/^[ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')); } catch { return false; }
};

const scriptedCount = (m: ModelServer) => m.requests.filter((r) => r.scripted).length;

const newRun = async (w: World, goal: string, workflow = 'real'): Promise<string> => {
  const created = await w.s.post('/api/runs', { project: w.s.projectId, goal, workflow, harness: 'claude', start: false });
  return created.body.runId as string;
};

const explain = (w: World, runId: string) => async (e: Error): Promise<never> => {
  const log = (await w.s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
  throw new Error(`${e.message}\n--- run log ---\n${log}\n--- worker ---\n${w.worker.output()}`);
};

const dispatchOf = (w: World, runId: string) => {
  const stepIds = new Set([...w.s.service.workers.dispatches.current.values()].filter((d) => d.runId === runId).map((d) => d.stepId));
  return w.s.service.core.journal.read('dispatch').filter((e) => stepIds.has((e.data as { stepId: string }).stepId));
};

test.serial('a message sent during a remote turn reaches the model on the worker in the same turn', async (t) => {
  t.timeout(240_000);
  const w = world!;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const before = scriptedCount(w.model);
  w.model.push({ kind: 'reply', text: 'Working on it.', gate }, say('Took the steer into account.'));
  const runId = await newRun(w, 'Work on the worker and listen.');
  t.is((await control(w.s, runId, 'Resume')).body.outcome, 'Applied');
  await w.model.waitForScripted(before + 1);
  const sent = await w.s.post(`/api/runs/${runId}/messages`, { text: 'STEER-REMOTE: use tabs', delivery: 'Resume' });
  t.is(sent.status, 200, JSON.stringify(sent.body));
  // the hub handed it to the worker's turn (claude takes a message mid-turn): recorded delivered
  await eventually(() => history(w.s, runId), (es) => es.some((e: any) => e.type === 'MessageDelivered'), 30_000).catch(explain(w, runId));
  // time for the word to cross to the worker and into the CLI before the model answers
  await new Promise((r) => setTimeout(r, 2000));
  release();
  await untilStanding(w.s, runId, 'Succeeded', 200_000).catch(explain(w, runId));
  const bodies = w.model.scriptedBodies().slice(before).map((b) => JSON.stringify(b));
  t.false(bodies[0]!.includes('STEER-REMOTE'));
  t.true(bodies.slice(1).some((b) => b.includes('STEER-REMOTE: use tabs')), 'the model on the worker saw the message in the same turn');
  const thread = (await w.s.get(`/api/runs/${runId}/thread?pageSize=100`)).body.rows;
  t.true(thread.some((r: any) => r.kind === 'agent' && r.text.includes('Took the steer into account.')));
});

test.serial('an abort during a remote turn ends the CLI on the worker; the run is Aborted and what the worker sends after is discarded', async (t) => {
  t.timeout(240_000);
  const w = world!;
  const before = scriptedCount(w.model);
  w.model.push(hang());
  const runId = await newRun(w, 'Wait on the worker.');
  t.is((await control(w.s, runId, 'Resume')).body.outcome, 'Applied');
  await w.model.waitForScripted(before + 1);
  const clis = workerClis(w.worker.child.pid!);
  t.true(clis.length > 0, 'the CLI runs under the worker');
  const asked = Date.now();
  t.is((await control(w.s, runId, 'Abort')).body.outcome, 'Applied');
  await untilStanding(w.s, runId, 'Aborted', 30_000).catch(explain(w, runId));
  await eventually(async () => clis.filter(alive), (left) => left.length === 0, 30_000)
    .catch(async (e: Error) => explain(w, runId)(new Error(`${e.message}: ${clis.filter(alive).map(commandOf).join('\n')}`)));
  t.log(`the worker's CLI was gone ${Date.now() - asked} ms after the abort was asked (not asserted)`);
  const journal = await eventually(async () => dispatchOf(w, runId), (es) => es.some((e) => e.type === 'StepMessageDiscarded' && (e.data as any).kind === 'result'), 30_000).catch(explain(w, runId));
  t.true(journal.some((e) => e.type === 'StepRecalled'));
  t.like(journal.find((e) => e.type === 'StepMessageDiscarded' && (e.data as any).kind === 'result')!.data, { workerId: w.workerId, reason: 'the step has ended (recalled)' });
});

test.serial('a pause during a remote turn ends the CLI on the worker; resumed, the step runs again there and its session goes on', async (t) => {
  t.timeout(240_000);
  const w = world!;
  const before = scriptedCount(w.model);
  w.model.push(hang());
  const runId = await newRun(w, 'Pause me on the worker.');
  t.is((await control(w.s, runId, 'Resume')).body.outcome, 'Applied');
  await w.model.waitForScripted(before + 1);
  const clis = workerClis(w.worker.child.pid!);
  t.true(clis.length > 0, 'the CLI runs under the worker');
  t.is((await control(w.s, runId, 'Pause')).body.outcome, 'Applied');
  await untilStanding(w.s, runId, 'Paused', 30_000).catch(explain(w, runId));
  await eventually(async () => clis.filter(alive), (left) => left.length === 0, 30_000).catch(explain(w, runId));
  t.true(dispatchOf(w, runId).some((e) => e.type === 'StepRecalled'));
  // resumed: a new dispatch to the same worker, which resumes the CLI's session it keeps
  w.model.push(say('Resumed and done.'));
  t.is((await control(w.s, runId, 'Resume')).body.outcome, 'Applied');
  await untilStanding(w.s, runId, 'Succeeded', 200_000).catch(explain(w, runId));
  const events = await history(w.s, runId);
  const started = events.filter((e: any) => e.type === 'StepStarted');
  t.is(started.length, 2);
  t.truthy(started[1].data.resumeSession, 'the second turn resumes the first one\'s session');
  t.is(dispatchOf(w, runId).filter((e) => e.type === 'StepResultApplied').length, 1);
});

test.serial('a partitioned worker: its lease lapses, its late result is discarded, its CLI is stopped, and the step runs again there: one commit', async (t) => {
  t.timeout(300_000);
  const w = world!;
  const before = scriptedCount(w.model);
  const runId = await newRun(w, 'Commit part.txt once.', 'full');
  const dir = worktreeDir(w.s.home, runId, basename(w.s.repo));
  const commit = runShell(`printf one > part.txt && git add part.txt && git -c user.name=w -c user.email=w@example.com commit -qm 'partition step'`, 'Committing.');
  w.model.push(commit, hang());
  const base = execFileSync('git', ['-C', w.s.repo, 'rev-parse', 'main']).toString().trim();
  t.is((await control(w.s, runId, 'Resume')).body.outcome, 'Applied');
  // the commit is made on the worker, and the turn waits on the model: cut the link
  await w.model.waitForScripted(before + 2);
  const clis = workerClis(w.worker.child.pid!);
  t.true(clis.length > 0);
  ip('netns', 'exec', NS, 'ip', 'link', 'set', WORKER_IF, 'down');
  let journal = await eventually(async () => dispatchOf(w, runId), (es) => es.some((e) => e.type === 'StepLeaseLapsed'), 60_000)
    .catch((e: Error) => { ip('netns', 'exec', NS, 'ip', 'link', 'set', WORKER_IF, 'up'); return explain(w, runId)(e); });
  t.like(journal.find((e) => e.type === 'StepLeaseLapsed')!.data, { workerId: w.workerId, token: 1 });
  // the second delivery's turn, once the worker is back
  w.model.push(commit, say('Committed once.'));
  t.true(clis.some(alive), 'cut off, the worker cannot know yet: its CLI still runs');
  ip('netns', 'exec', NS, 'ip', 'link', 'set', WORKER_IF, 'up');
  // the first delivery's CLI is stopped when its renewal is refused
  const back = Date.now();
  await eventually(async () => clis.filter(alive), (left) => left.length === 0, 60_000).catch(explain(w, runId));
  t.log(`the partitioned worker's CLI was gone ${Date.now() - back} ms after its link came back (not asserted)`);
  await untilStanding(w.s, runId, 'Succeeded', 200_000).catch(explain(w, runId));
  journal = await eventually(async () => dispatchOf(w, runId), (es) => es.some((e) => e.type === 'StepMessageDiscarded' && (e.data as any).kind === 'result'), 30_000);
  t.like(journal.find((e) => e.type === 'StepMessageDiscarded' && (e.data as any).kind === 'result')!.data, { workerId: w.workerId, token: 1, reason: `the lease of claim 1 of ${w.workerId} lapsed` });
  t.like(journal.find((e) => e.type === 'StepClaimed' && (e.data as any).token === 2)?.data, { workerId: w.workerId });
  t.like(journal.find((e) => e.type === 'StepResultApplied')!.data, { token: 2 });
  // nothing of the first delivery landed: the branch has the step's commit once
  t.deepEqual(execFileSync('git', ['-C', dir, 'log', '--format=%s', `${base}..HEAD`]).toString().trim().split('\n'), ['partition step']);
  t.is(readFileSync(join(dir, 'part.txt'), 'utf8'), 'one');
  const log = (await w.s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => l.text as string);
  t.true(log.some((l: string) => l.includes('its lease lapsed; the step is delivered again')), 'the run\'s log says why the step ran again');
});
