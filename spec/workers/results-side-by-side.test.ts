import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { inboxOf } from '../../lib/workers/nats-config.js';
import { claimStep, type Claim } from '../../lib/workers/step-queue.js';
import { bundleResult } from '../../lib/workers/run-bundle.js';
import { tokenOf } from '../../lib/workers/dispatch-port.js';
import { eventually, tempDir } from '../helpers/env.js';
import { holdObjects } from '../helpers/held-git.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { control } from '../helpers/steer.js';

// The hub applies one step's result beside another's (lib/workers/step-lanes.ts): a worker's work
// going into one run folder does not hold up another step's result. The test speaks as a worker
// holding two steps (two runs of a project that runs on it). Step 1's work is held in the middle
// of being applied: its run folder's objects/info/alternates (read by every git call that looks
// at objects there) is made a named pipe, so the hub's `git fetch` of its bundle waits until the
// test writes into it. Step 2's result, sent after step 1's, must be applied and its run end
// meanwhile; then step 1 is let go and ends too. In one line for all steps, step 2 waited behind.

const connectAs = async (url: string, seed: string, workerId: string): Promise<NatsConnection> => {
  for (let tries = 1; ; tries++) {
    try {
      return await connect({ servers: url, authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)), inboxPrefix: inboxOf(workerId) });
    } catch (e) {
      if (tries >= 5) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
};

type Job = { stepId: string; runId: string; cwd: string };

// the turn's work as the worker bundles it (its folder is the hub's as dispatched)
const workOf = async (job: Job): Promise<Buffer> => {
  const file = join(tempDir('svc-result-'), 'out.bundle');
  await bundleResult(job.cwd, job.runId, job.stepId, file);
  return readFileSync(file);
};

// as step-runner.ts sends it: the work in one part, then the result naming its parts
const sendWork = async (nc: NatsConnection, workerId: string, job: Job, token: number, work: Buffer): Promise<void> => {
  const js = jetstream(nc);
  const subject = `svc.w.${workerId}.out.${job.stepId}`;
  await js.publish(subject, JSON.stringify({ token, kind: 'bundle', index: 0, data: work.toString('base64') }), { msgID: `${job.stepId}.${token}.1` });
  await js.publish(subject, JSON.stringify({ token, kind: 'result', result: { outcome: 'success', summary: 'done on the worker' }, chunks: 1 }), { msgID: `${job.stepId}.${token}.2` });
};

test('a step\'s result is applied while another step\'s work is still going into its run folder', async (t) => {
  t.timeout(180_000);
  realCliEnv('claude');
  process.env['SVC_NATS_LISTEN'] = '127.0.0.1:-1';
  // the test's worker renews nothing: its claims must outlive the test
  process.env['SVC_STEP_ACK_WAIT_MS'] = '600000';
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());
  const made = (await s.post('/api/workers/tokens', { name: 'a' })).body as { token: string; hub: string };
  const [id, seed] = made.token.split('.') as [string, string];
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: id }))).status, 200);
  const runs: string[] = [];
  for (const goal of ['First.', 'Second.']) {
    const runId = (await s.post('/api/runs', { project: s.projectId, goal, workflow: 'real', harness: 'claude', start: false })).body.runId as string;
    t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
    runs.push(runId);
  }

  // both steps claimed at the hub, as `svc worker join` claims them
  const nc = await connectAs(made.hub, seed, id);
  t.teardown(() => nc.close().catch(() => undefined));
  const held = new Map<string, { claim: Claim; job: Job; token: number }>();
  while (held.size < 2) {
    const claim = await eventually(() => claimStep(nc, 2000, id).catch(() => null), (c) => c !== null, 60_000);
    const job = JSON.parse(new TextDecoder().decode(claim!.job)) as { stepId: string; runId: string; cwd: string; attempt?: number };
    const token = tokenOf(job.attempt ?? 0, claim!.token);
    const claimed = JSON.parse((await nc.request(`svc.w.${id}.claim`, JSON.stringify({ stepId: job.stepId, token }))).string());
    t.true(claimed.ok, JSON.stringify(claimed));
    held.set(job.runId, { claim: claim!, job, token });
  }
  const [first, second] = runs.map((r) => held.get(r)!);
  const works = await Promise.all([first!, second!].map((h) => workOf(h.job)));

  // step 1's run folder: git waits on its objects until the test lets it go
  const letGo = holdObjects(t, first!.job.cwd);

  const applied = (stepId: string) => s.service.core.journal.read('dispatch').some((e) => e.type === 'StepResultApplied' && (e.data as { stepId: string }).stepId === stepId);
  await sendWork(nc, id, first!.job, first!.token, works[0]!);
  await sendWork(nc, id, second!.job, second!.token, works[1]!);

  // step 2's result lands and its run ends while step 1's work still waits (within git's own
  // time limit of a minute, after which step 1's held call would be ended and step 2 go on)
  await eventually(async () => s.service.core.runs.get(second!.job.runId)?.lifecycle, (l) => l === 'ended', 40_000);
  t.true(applied(second!.job.stepId));
  t.is(s.service.core.runs.get(second!.job.runId)?.ending, 'Succeeded');
  t.false(applied(first!.job.stepId), 'step 1 is still held');

  // step 1 let go: its work lands and its run ends as well
  letGo();
  await eventually(async () => s.service.core.runs.get(first!.job.runId)?.lifecycle, (l) => l === 'ended', 60_000);
  t.true(applied(first!.job.stepId));
  t.is(s.service.core.runs.get(first!.job.runId)?.ending, 'Succeeded');
});
