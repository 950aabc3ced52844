// Quota windows in the decides: a step whose CLI refused for quota waits (reset time, else backoff)
// or switches; the wait's end runs the step again; SkipWait ends it; the queue holds a run whose
// harness is out of quota. given(events) / when(command) / then(whole events, or the refusal).
import test from 'ava';
import { decideControl } from '../../commands/control.js';
import { decideFinishStep, decideGrantSlot } from '../../commands/engine-steps.js';
import { backoffMs, decideHoldQueued } from '../../commands/quota.js';
import type { RunEvent } from '../../journal/run-events.js';
import { standingOf } from '../../projections/standing.js';
import { at, by, created, given, prepared, queued, RUNNING, runDecider, started } from '../helpers/given.js';

const finish = runDecider(decideFinishStep);
const grant = runDecider(decideGrantSlot);
const hold = runDecider(decideHoldQueued);
const control = runDecider(decideControl);

const NOW = '2026-11-20T10:00:00.000Z';
const claudeStep: RunEvent = { type: 'StepStarted', data: { stepId: 's1', node: 'work', kind: 'agent', attempt: 1, harness: 'claude' } };
const ON_CLAUDE: RunEvent[] = [created, queued, started, prepared, claudeStep];
const limited = (over: Record<string, unknown> = {}) => ({ stepId: 's1', outcome: 'failure' as const, summary: 'limit', failure: 'quota', quota: { evidence: 'usage limit reached', now: NOW, ...over } });
const hit = (attempt: number, waitEndsAt?: string, resetsAt: string | null = null): RunEvent =>
  ({ type: 'QuotaHit', data: { stepId: 's1', node: 'work', harness: 'claude', resetsAt, evidence: 'usage limit reached', attempt, ...(waitEndsAt ? { waitEndsAt } : {}) } });
const waitEnded = (stepId = 's1'): RunEvent => ({ type: 'QuotaWaitEnded', data: { stepId, node: 'work' } });
const again = (stepId: string): RunEvent => ({ type: 'StepStarted', data: { stepId, node: 'work', kind: 'agent', attempt: 2, harness: 'claude' } });

test('backoff: 1 min, doubling, at most 30 min', (t) => {
  t.deepEqual([1, 2, 3, 4, 5, 6, 7, 12].map((n) => backoffMs(n) / 60_000), [1, 2, 4, 8, 16, 30, 30, 30]);
});

test('quota with a reset time: the step waits until then', (t) => {
  finish(t).given(...ON_CLAUDE).when(limited({ resetsAt: '2026-11-20T14:05:00.000Z' }))
    .then(hit(1, '2026-11-20T14:05:00.000Z', '2026-11-20T14:05:00.000Z'));
});

test('quota without a reset time: one minute of backoff', (t) => {
  finish(t).given(...ON_CLAUDE).when(limited()).then(hit(1, '2026-11-20T10:01:00.000Z'));
});

test('a reset already past is no reason to wait it: backoff instead', (t) => {
  finish(t).given(...ON_CLAUDE).when(limited({ resetsAt: '2026-11-20T09:00:00.000Z' })).then(hit(1, '2026-11-20T10:01:00.000Z', '2026-11-20T09:00:00.000Z'));
});

test('the third hit in a row backs off four minutes (the count is in the journal)', (t) => {
  finish(t).given(...ON_CLAUDE, hit(1, '2026-11-20T09:50:00.000Z'), waitEnded(), again('s2'), { type: 'QuotaHit', data: { ...(hit(2, '2026-11-20T09:55:00.000Z').data as object), stepId: 's2' } } as RunEvent, waitEnded('s2'), again('s3'))
    .when({ ...limited(), stepId: 's3' })
    .then({ type: 'QuotaHit', data: { stepId: 's3', node: 'work', harness: 'claude', resetsAt: null, evidence: 'usage limit reached', attempt: 3, waitEndsAt: '2026-11-20T10:04:00.000Z' } });
});

test('a step that ended on its own resets the count', (t) => {
  const s = given(...ON_CLAUDE, hit(1, '2026-11-20T09:50:00.000Z'), waitEnded(), again('s2'), { type: 'StepSucceeded', data: { stepId: 's2', node: 'work', summary: 'ok' } });
  t.is(s.quotaAttempts, undefined);
});

test('a fallback ready: the run switches harness (reason quota) instead of waiting', (t) => {
  finish(t).given(...ON_CLAUDE).when(limited({ fallback: 'codex' })).then(
    hit(1),
    { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'claude is out of quota; switching to codex' } },
    { type: 'HarnessChanged', data: { harness: 'codex', by: { kind: 'engine' }, reason: 'quota' } },
  );
});

test('the agent had reported its outcome: that stands, quota or not', (t) => {
  finish(t).given(...ON_CLAUDE, { type: 'OutcomeReported', data: { stepId: 's1', outcome: 'success', summary: 'done' } }).when(limited())
    .then({ type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'done' } });
});

test('a quota wait stands as Waiting with its end; the wait ending runs the step again in its session', (t) => {
  const s = given(...ON_CLAUDE, { type: 'StepSessionStarted', data: { stepId: 's1', sessionId: 'sess-1' } }, hit(1, '2026-11-20T10:01:00.000Z'));
  t.is(standingOf(s), 'Waiting');
  t.is(s.step?.endsAt, '2026-11-20T10:01:00.000Z');
  t.deepEqual(s.step?.quota, { harness: 'claude', resetsAt: null, evidence: 'usage limit reached' });
  finish(t).given(...ON_CLAUDE, hit(1, '2026-11-20T10:01:00.000Z')).when({ stepId: 's1', outcome: 'success', summary: 'wait ended' }).then(waitEnded());
  const after = given(...ON_CLAUDE, { type: 'StepSessionStarted', data: { stepId: 's1', sessionId: 'sess-1' } }, hit(1, '2026-11-20T10:01:00.000Z'), waitEnded());
  t.is(after.step, null);
  t.is(after.node, 'work', 'the same step runs again');
  t.is(after.previous?.outcome, 'interrupted', 'so it resumes its session');
  t.is(after.sessions['work'], 'sess-1');
});

test('SkipWait on a quota wait ends it: the step runs again now', (t) => {
  control(t).given(...ON_CLAUDE, hit(1, '2026-11-20T10:01:00.000Z')).when({ at, by, action: 'SkipWait' })
    .then({ type: 'WaitSkipped', data: { stepId: 's1', by } }, waitEnded());
});

test('GrantSlot: a run whose harness is out of quota is held; a free slot otherwise starts it', (t) => {
  grant(t).given(created, queued).when({ held: 0, cap: 2, quotaHold: { harness: 'claude', until: '2026-11-20T14:05:00.000Z' } })
    .thenRefused('Conflict', 'waiting: claude limited until 2026-11-20T14:05:00.000Z');
  grant(t).given(created, queued).when({ held: 2, cap: 2, quotaHold: { harness: 'claude', until: null } })
    .thenRefused('Conflict', 'all 2 run slot(s) are taken; the run waits in the queue');
  grant(t).given(created, queued, { type: 'QueueHeld', data: { harness: 'claude', until: null } }).when({ held: 0, cap: 2 })
    .then({ type: 'RunStarted', data: { node: 'work' } });
});

test('HoldQueued: recorded once per window; nothing for a run not queued', (t) => {
  hold(t).given(created, queued).when({ harness: 'claude', until: '2026-11-20T14:05:00.000Z' })
    .then({ type: 'QueueHeld', data: { harness: 'claude', until: '2026-11-20T14:05:00.000Z' } });
  hold(t).given(created, queued, { type: 'QueueHeld', data: { harness: 'claude', until: '2026-11-20T14:05:00.000Z' } }).when({ harness: 'claude', until: '2026-11-20T14:05:00.000Z' }).thenNothing();
  hold(t).given(...RUNNING).when({ harness: 'claude', until: null }).thenNothing();
  const s = given(created, queued, { type: 'QueueHeld', data: { harness: 'claude', until: null } }, started);
  t.is(s.queueHeld, undefined, 'a started run is held by nothing');
});
