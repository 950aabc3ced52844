import { left, right } from 'fp-ts/lib/Either.js';
import { notFound, type Outcome } from '../../commands/refusal.js';
import type { RunState } from '../../projections/run-state.js';
import { standingOf } from '../../projections/standing.js';
import { runStream } from '../state/run-store.js';
import type { RunDetail, WaitChange } from '../service-api.js';
import { detailOf, type ServiceCore } from './core.js';

// wait_for_run: a listener on the run's journal, no polling. It answers when the standing changes,
// a question is asked, or the run ends; an ended run answers at once; time running out is Nothing.

const changeBetween = (before: RunState, after: RunState, asked: boolean): WaitChange | null => {
  if (after.lifecycle === 'ended') return 'Ended';
  if (asked) return 'Question';
  return standingOf(after) !== standingOf(before) ? 'Standing' : null;
};

export const waitForRun = (core: ServiceCore, runId: string, timeoutMs: number, signal?: AbortSignal): Promise<Outcome<{ run: RunDetail; changed: WaitChange }>> => {
  const start = core.runs.get(runId);
  if (!start) return Promise.resolve(left(notFound('run', runId)));
  if (start.lifecycle === 'ended') return Promise.resolve(right({ run: detailOf(core, start), changed: 'AlreadyEnded' }));
  return new Promise((resolve) => {
    const finish = (changed: WaitChange) => {
      clearTimeout(timer);
      stop();
      signal?.removeEventListener('abort', onAbort);
      resolve(right({ run: detailOf(core, core.runs.get(runId) ?? start), changed }));
    };
    const onAbort = () => finish('Nothing');
    const timer = setTimeout(() => finish('Nothing'), timeoutMs);
    const stop = core.journal.subscribe((stream, events) => {
      if (stream !== runStream(runId)) return;
      const now = core.runs.get(runId);
      const changed = now && changeBetween(start, now, events.some((e) => e.type === 'QuestionAsked'));
      if (changed) finish(changed);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
};
