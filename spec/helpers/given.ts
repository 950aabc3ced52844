import type { ExecutionContext } from 'ava';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import { refusalText, type Refusal } from '../../commands/refusal.js';
import type { RunEvent } from '../../journal/run-events.js';
import { applyStored, createdState, type RunState } from '../../projections/run-state.js';
import type { Workflow } from '../../domain/workflow.js';

// given(events) -> the run state those events fold to: the start of every decide test. And, as
// emmett's DeciderSpecification, given(events).when(command).then(events) comparing WHOLE events
// (a test that compares only types lets a wrong payload through), or thenRefused(tag, detail).

export const WF: Workflow = {
  name: 'w', origin: 'shipped', version: 'v1', description: '', inputs: [], defaults: {}, stepDefaults: {}, source: '',
  nodes: [
    { id: 'start', kind: 'start', attrs: {} },
    { id: 'work', kind: 'agent', prompt: '{{goal}}', attrs: {} },
    { id: 'gate', kind: 'gate', attrs: {} },
    { id: 'nap', kind: 'wait', durationMs: 1000, attrs: {} },
    { id: 'done', kind: 'exit', attrs: {} },
  ],
  routes: [
    { from: 'start', to: 'work' }, { from: 'work', to: 'gate', condition: 'success' }, { from: 'gate', to: 'nap' }, { from: 'nap', to: 'done' },
  ],
};

export const by = { kind: 'person' as const };
export const at = '2026-11-20T10:00:00.000Z';

export const created: RunEvent = { type: 'RunCreated', data: { runId: 'r1', projectId: 'p', title: 't', goal: 'g', workflow: WF, inputs: {}, by } };
export const queued: RunEvent = { type: 'RunQueued', data: { by } };
export const started: RunEvent = { type: 'RunStarted', data: { node: 'work' } };
export const prepared: RunEvent = { type: 'WorktreesPrepared', data: { checkouts: [{ folder: 'f', path: '/p', directory: '/w', branch: 'svc/r1', base: 'abc' }] } };
export const stepStarted = (stepId: string, node = 'work', kind = 'agent'): RunEvent => ({ type: 'StepStarted', data: { stepId, node, kind, attempt: 1 } });

export const given = (...events: RunEvent[]): RunState => {
  const [first, ...rest] = events;
  if (first?.type !== 'RunCreated') throw new Error('given() starts with RunCreated');
  let s = applyStored(createdState(first, at), { ...first, seq: 1, at });
  rest.forEach((e, i) => { s = applyStored(s, { ...e, seq: i + 2, at } as RunEvent & { seq: number; at: string }); });
  return s;
};

/** a run at work: its first agent step s1 is running */
export const RUNNING: readonly RunEvent[] = [created, queued, started, prepared, stepStarted('s1')];
export const running = (...more: RunEvent[]) => given(...RUNNING, ...more);

export interface Then<E> {
  /** the decided events, whole and in order */
  then(...expected: readonly E[]): void;
  /** decided nothing: a repeat, or nothing to do */
  thenNothing(): void;
  /** refused with this tag; detail is the refusal's text, exactly or by pattern */
  thenRefused(tag: Refusal['_tag'], detail?: string | RegExp): void;
}

const thenOf = <E>(t: ExecutionContext, d: Either<Refusal, readonly E[]>): Then<E> => ({
  then: (...expected) => { t.deepEqual(d, { _tag: 'Right', right: expected }); },
  thenNothing: () => { t.deepEqual(d, { _tag: 'Right', right: [] }); },
  thenRefused: (tag, detail) => {
    if (!isLeft(d)) return void t.fail(`expected a ${tag} refusal, decided ${JSON.stringify(d.right)}`);
    t.is(d.left._tag, tag);
    if (typeof detail === 'string') t.is(refusalText(d.left), detail);
    else if (detail) t.regex(refusalText(d.left), detail);
  },
});

export interface Spec<S, C, E> {
  given(...events: readonly E[]): { when(c: C): Then<E> };
  /** a state the events cannot make (an unreadable history, a field set by hand) */
  givenState(s: S): { when(c: C): Then<E> };
}

/** a decide's specification: fold turns the given events into its state */
export const decider = <S, C, E>(fold: (events: readonly E[]) => S, decide: (s: S, c: C) => Either<Refusal, readonly E[]>) =>
  (t: ExecutionContext): Spec<S, C, E> => ({
    given: (...events) => ({ when: (c) => thenOf(t, decide(fold(events), c)) }),
    givenState: (s) => ({ when: (c) => thenOf(t, decide(s, c)) }),
  });

/** the specification of a decide over a run's state: given starts with RunCreated */
export const runDecider = <C>(decide: (s: RunState, c: C) => Either<Refusal, readonly RunEvent[]>) =>
  decider<RunState, C, RunEvent>((events) => given(...events), decide);
