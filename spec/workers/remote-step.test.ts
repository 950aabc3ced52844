import '../helpers/env.js';
import test from 'ava';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nkeyAuthenticator } from '@nats-io/transport-node';
import { connectToHub } from '../../lib/workers/hub-connect.js';
import { jetstream } from '@nats-io/jetstream';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { inboxOf } from '../../lib/workers/nats-config.js';
import { sandboxProbe } from '../../lib/sandbox/probe.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { CLI } from '../helpers/cli.js';
import { eventually, repoRoot, tempDir } from '../helpers/env.js';
import { spawnGroup } from '../helpers/process-groups.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { control, history, untilStanding } from '../helpers/steer.js';

// A step runs on another machine (docs/workers.md), as a user meets it: a real nats-server started
// by the hub, the hub's HTTP on an ephemeral port, and `svc worker join` in a network namespace of
// its own (a veth pair with its own addresses) and a mount namespace where the hub's home is an
// empty folder, so the worker cannot read the hub's files and makes the run folder at the same path
// in a directory of its own. The real claude runs there against the scripted model server, reached
// over the veth; its ask_question and report_outcome go through the worker's run-tools relay.

const n = process.pid % 250;
const NS = `svcw${process.pid}`;
const HUB_IF = `svh${process.pid}`;
const WORKER_IF = `svw${process.pid}`;
const HUB_IP = `10.77.${n}.1`;
const WORKER_IP = `10.77.${n}.2`;

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

test.before(() => {
  ip('netns', 'add', NS);
  ip('link', 'add', HUB_IF, 'type', 'veth', 'peer', 'name', WORKER_IF);
  ip('link', 'set', WORKER_IF, 'netns', NS);
  ip('addr', 'add', `${HUB_IP}/30`, 'dev', HUB_IF);
  ip('link', 'set', HUB_IF, 'up');
  ip('netns', 'exec', NS, 'ip', 'addr', 'add', `${WORKER_IP}/30`, 'dev', WORKER_IF);
  ip('netns', 'exec', NS, 'ip', 'link', 'set', WORKER_IF, 'up');
  ip('netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up');
});

test.after.always(() => {
  try { ip('netns', 'del', NS); } catch { /* gone */ }
  try { ip('link', 'del', HUB_IF); } catch { /* went with the namespace */ }
});

/** `svc worker join` inside the namespace, its own HOME, the hub's home hidden under an empty folder */
const startWorker = (hubHome: string, url: string, token: string, modelUrl: string) => {
  const home = tempDir('svc-worker-home-');
  const cover = tempDir('svc-worker-root-');
  const cli = realCliEnv('claude');
  const env = {
    ...process.env, ...cli.env, HOME: home, SVC_HOME: join(home, '.svc'),
    ANTHROPIC_BASE_URL: modelUrl, ANTHROPIC_API_KEY: 'sk-test', NO_PROXY: `127.0.0.1,localhost,${HUB_IP}`,
  };
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const child: ChildProcess = spawnGroup('ip', ['netns', 'exec', NS, 'unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, ...CLI, 'worker', 'join', url, token, '--slots', '1'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { child, cover, output: () => out };
};

test('an agent step pinned to a worker runs there; its file, log, thread and outcome land on the hub; an old token is discarded', async (t) => {
  t.timeout(300_000);
  realCliEnv('claude');
  process.env['SVC_NATS_LISTEN'] = `${HUB_IP}:-1`;
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());
  const hubHome = dirname(s.home);
  const model = await startModelServer([], HUB_IP);
  t.teardown(() => model.close());
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });

  const made = await s.post('/api/workers/tokens', { name: 'other-box' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const { token, hub } = made.body as { token: string; hub: string };
  const workerId = token.split('.')[0]!;
  t.true(hub.includes(HUB_IP), hub);
  t.regex(hub, /^tls:\/\/.*#sha256=[0-9a-f]{64}$/, 'beyond loopback the worker joins over TLS, pinned to the hub\'s certificate');
  const worker = startWorker(hubHome, hub, token, model.url);
  await eventually(() => s.get('/api/workers'), (r) => r.body.workers.some((w: any) => w.workerId === workerId && w.state === 'online'), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: workerId }))).body.runOn, workerId);

  const goal = 'Write remote.txt on the other machine.';
  const created = await s.post('/api/runs', { project: s.projectId, goal, workflow: 'real', harness: 'claude', start: false });
  const runId = created.body.runId as string;
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  const headBefore = execFileSync('git', ['-C', s.repo, 'rev-parse', 'main']).toString().trim();
  model.push(
    writeFile(join(dir, 'remote.txt'), 'written on the worker\n', 'Writing the file.'),
    callMcp('ask_question', { prompt: 'Which colour?', options: ['red', 'blue'], allowText: false }),
    callMcp('report_outcome', { outcome: 'success', summary: 'remote.txt written on the worker' }),
    say('All done on the worker.'),
  );
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const failed = async (e: Error) => {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${e.message}\n--- run log ---\n${log}\n--- worker ---\n${worker.output()}`);
  };
  // the agent's question reaches the hub through the worker's run-tools relay; the answer goes back the same way
  const asked = await untilStanding(s, runId, 'Question', 200_000).catch(failed);
  t.deepEqual(asked.question.options, ['red', 'blue']);
  t.is((await s.post(`/api/runs/${runId}/answers`, { question: asked.question.id, answer: ['blue'] })).body.delivered, true);
  const done = await untilStanding(s, runId, 'Succeeded', 200_000).catch(async (e: Error) => {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${e.message}\n--- run log ---\n${log}\n--- worker ---\n${worker.output()}`);
  });
  t.is(done.outcome, 'success');

  // it ran on the worker: the model was called from the worker's address, with the step's prompt
  const scripted = model.requests.filter((r) => r.scripted);
  t.true(scripted.length >= 3);
  t.true(scripted.every((r) => r.from === WORKER_IP), JSON.stringify(scripted.map((r) => r.from)));
  t.true(JSON.stringify(scripted[0]!.body).includes(goal), 'the step\'s prompt reached the model on the worker');
  t.true(JSON.stringify(model.scriptedBodies()).includes('blue'), 'the answer reached the model on the worker');
  // the journal's claim names the worker; the result was applied from that claim
  const fence = s.service.workers.dispatches.current;
  const step = [...fence.values()].find((d) => d.runId === runId);
  t.is(step?.claim?.workerId, workerId);
  t.is(step?.ended, 'applied');
  // the worker wrote in its own folder at the hub's path: its copy lies under the cover, not in the hub's home
  t.true(existsSync(join(worker.cover, '.svc', 'worktrees', runId, basename(s.repo), 'remote.txt')));
  // the hub's run folder has the file; the branch holds what the step committed (nothing, as a local step)
  t.is(readFileSync(join(dir, 'remote.txt'), 'utf8'), 'written on the worker\n');
  t.is(execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD']).toString().trim(), headBefore);
  const events = await history(s, runId);
  const at = (type: string) => Date.parse(events.find((e: any) => e.type === type)?.at ?? '');
  t.log(`step on the worker, StepStarted to StepSucceeded (question answered at once): ${at('StepSucceeded') - at('StepStarted')} ms`);
  const snapshot = events.find((e: any) => e.type === 'SnapshotTaken');
  t.truthy(snapshot, 'the step end was snapshotted on the hub, as a local step');
  t.is(execFileSync('git', ['-C', dir, 'show', `${snapshot.data.commit}:remote.txt`]).toString(), 'written on the worker\n');
  t.is(events.find((e: any) => e.type === 'StepSucceeded').data.summary, 'remote.txt written on the worker', 'report_outcome came through the relay');
  const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines;
  t.true(log.filter((l: any) => l.source === 'agent').length >= 2, 'the worker\'s CLI output is in the hub\'s log');
  t.true(log.some((l: any) => l.source === 'service' && l.text.includes(`on worker ${workerId}`)));
  // in svc's sandbox on the worker when this machine can start one (the same probe the worker ran)
  const probe = await sandboxProbe();
  const sandboxLine = log.find((l: any) => l.text.includes(`[worker ${workerId}] the turn runs`))?.text ?? '';
  t.is(sandboxLine.includes('runs in svc\'s sandbox here'), probe._tag === 'Ready', sandboxLine);
  t.log(sandboxLine);
  const thread = (await s.get(`/api/runs/${runId}/thread?pageSize=100`)).body.rows;
  t.true(thread.some((r: any) => r.kind === 'agent' && r.text.includes('All done on the worker.')));

  // a message for the step from an older claim, sent as the worker through the real NATS path,
  // is recorded discarded, and nothing of it lands in the log
  const seed = token.slice(workerId.length + 1);
  const nc = await connectToHub(hub, { authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)), inboxPrefix: inboxOf(workerId) });
  t.teardown(() => nc.close());
  const stepId = step!.stepId;
  await jetstream(nc).publish(`svc.w.${workerId}.out.${stepId}`, JSON.stringify({ token: 0, kind: 'log', text: 'LATE LINE from an old claim' }), { msgID: `${stepId}.0.late` });
  const discarded = await eventually(() => s.service.core.journal.read('dispatch').filter((e) => e.type === 'StepMessageDiscarded'), (xs) => xs.length > 0, 30_000);
  t.like(discarded[0]!.data, { stepId, workerId, token: 0, kind: 'event' });
  // a message that does not decode is refused at the door and kept as evidence
  await jetstream(nc).publish(`svc.w.${workerId}.out.${stepId}`, JSON.stringify({ token: step!.claim!.token, kind: 'shell', run: 'rm -rf /' }), { msgID: `${stepId}.x.bad` });
  const refused = await eventually(() => s.service.core.journal.read('workers').filter((e) => e.type === 'WorkerMessageRefused'), (xs) => xs.length > 0, 30_000);
  t.like(refused[0]!.data, { workerId, subject: `svc.w.${workerId}.out.${stepId}`, reason: 'a worker message does not decode' });
  const after = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines;
  t.false(after.some((l: any) => l.text.includes('LATE LINE')));
});
