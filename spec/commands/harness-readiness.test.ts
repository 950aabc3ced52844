import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { allowedActions } from '../../commands/control.js';
import { decideFinishStep } from '../../commands/engine-steps.js';
import { decideStartReadiness } from '../../commands/start-readiness.js';
import type { Availability } from '../../domain/harness.js';
import type { HarnessName } from '../../domain/workflow.js';
import { standingOf } from '../../projections/standing.js';
import { running } from '../helpers/given.js';

// The two rules of "a harness that cannot work": a start that needs one is refused up front, and
// a step whose CLI cannot start pauses the run instead of walking the workflow's failure edges.

const avail = (entries: [HarnessName, Availability][]) => new Map(entries);
const missing: Availability = { _tag: 'NotInstalled', detail: 'claude: not found' };

test('given claude not installed, when a run needing claude starts, then it is refused with the install command', (t) => {
  const r = decideStartReadiness({ needed: ['claude'], availability: avail([['claude', missing]]), start: true });
  t.is(r?._tag, 'Unavailable');
  t.is(r && r._tag === 'Unavailable' ? r.detail : '',
    'not started: harness claude is not installed (claude: not found); install it with `npm install -g @anthropic-ai/claude-code`. Then start it again (`svc doctor` checks every harness), or choose another harness.');
});

test('given codex not logged in, a start needing codex is refused with how to log in; every blocking harness is named', (t) => {
  const r = decideStartReadiness({ needed: ['codex', 'opencode'], availability: avail([['codex', { _tag: 'NotLoggedIn', detail: 'codex login status: Not logged in' }], ['opencode', { _tag: 'NotInstalled', detail: 'opencode: not found' }]]), start: true });
  const detail = r && r._tag === 'Unavailable' ? r.detail : '';
  t.regex(detail, /harness codex is not logged in \(codex login status: Not logged in\); log in with `codex login` \(or set OPENAI_API_KEY\)/);
  t.regex(detail, /harness opencode is not installed \(opencode: not found\); install it with `npm install -g opencode-ai`/);
});

test('not checked yet, out of quota, ready, not needed, or start:false: the start is allowed', (t) => {
  const some = avail([['claude', missing], ['codex', { _tag: 'QuotaExhausted', detail: 'limit' }], ['opencode', { _tag: 'Ready', version: '1' }]]);
  t.is(decideStartReadiness({ needed: ['codex', 'opencode'], availability: some, start: true }), null);
  t.is(decideStartReadiness({ needed: ['claude'], availability: avail([]), start: true }), null, 'unknown is allowed');
  t.is(decideStartReadiness({ needed: ['claude'], availability: some, start: false }), null, 'recorded for later');
  t.is(decideStartReadiness({ needed: [], availability: some, start: true }), null, 'a workflow without agent steps');
});

test('given a running step, when its CLI could not start, then the step is interrupted and the run pauses with the reason', (t) => {
  const d = decideFinishStep(running(), { stepId: 's1', outcome: 'failure', summary: 'claude is not installed (spawn claude ENOENT)', failure: 'unavailable' });
  t.true(isRight(d));
  const events = isRight(d) ? d.right : [];
  t.deepEqual(events, [
    { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'harness problem: claude is not installed (spawn claude ENOENT)' } },
    { type: 'RunPaused', data: { by: { kind: 'engine' }, reason: 'harness problem: claude is not installed (spawn claude ENOENT)' } },
  ]);
  const after = running(...events);
  t.is(standingOf(after), 'Paused');
  t.is(after.node, 'work', 'no failure edge was taken');
  for (const a of ['ChangeHarness', 'Resume', 'Abort'] as const) t.true(allowedActions(after).includes(a), a);
});

// (quota, with what the CLI said of its window, waits or switches instead: spec/commands/quota.test.ts)
test('an agent failure or a watchdog still fails the step (its edges decide)', (t) => {
  for (const failure of [undefined, 'error', 'watchdog']) {
    const d = decideFinishStep(running(), { stepId: 's1', outcome: 'failure', summary: 'no', ...(failure ? { failure } : {}) });
    t.deepEqual(isRight(d) ? d.right.map((e) => e.type) : [], ['StepFailed'], String(failure));
  }
});
