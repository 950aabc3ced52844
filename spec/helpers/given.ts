import type { RunEvent } from '../../journal/run-events.js';
import { applyStored, createdState, type RunState } from '../../projections/run-state.js';
import type { Workflow } from '../../lib/workflows/model.js';

// given(events) -> the run state those events fold to: the start of every decide test.

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

export const running = (...more: RunEvent[]) => given(created, queued, started, prepared, stepStarted('s1'), ...more);
