import { left, right } from 'fp-ts/lib/Either.js';
import { notFound, type Outcome } from '../../commands/refusal.js';
import type { Journal, Stored } from '../../journal/journal.js';
import type { RunState } from '../../projections/run-state.js';
import { standingOf } from '../../projections/standing.js';
import type { WaitChange } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { detailOf, type RunViewSource } from './run-detail.js';

// wait_for_run: no polling. One journal listener serves every waiter: an append to a run nobody
// waits on costs one map lookup, and an append to a watched run computes the run's view once for
// all of its waiters. A waiter answers when the standing changes, a question is asked, or the run
// ends; an ended run answers at once; time running out is Nothing.
//
// Every waiter one append wakes with the same change gets the very same answer object, so a door
// that encodes answers (the HTTP route) can encode it once and write the same bytes to all of them.

export type WaitAnswer = Readonly<{ run: RunDetail; changed: WaitChange }>;

interface Waiter {
  readonly standing: string;
  readonly resolve: (answer: WaitAnswer) => void;
}

const changeOf = (w: Waiter, now: RunState, asked: boolean): WaitChange | null => {
  if (now.lifecycle === 'ended') return 'Ended';
  if (asked) return 'Question';
  return standingOf(now) !== w.standing ? 'Standing' : null;
};

export class WaitHub {
  private readonly waiters = new Map<string, Set<Waiter>>();

  constructor(private readonly core: RunViewSource, journal: Journal) {
    journal.subscribe((stream, events) => this.onAppended(stream, events));
  }

  get size(): number {
    let n = 0;
    for (const set of this.waiters.values()) n += set.size;
    return n;
  }

  private onAppended(stream: string, events: readonly Stored[]): void {
    if (!stream.startsWith('run:')) return;
    const runId = stream.slice(4);
    const set = this.waiters.get(runId);
    const now = set && this.core.runs.get(runId);
    if (!set || !now) return;
    const asked = events.some((e) => e.type === 'QuestionAsked');
    let view: RunDetail | null = null;
    const answers = new Map<WaitChange, WaitAnswer>();
    const answerFor = (changed: WaitChange): WaitAnswer => {
      let a = answers.get(changed);
      if (!a) answers.set(changed, (a = { run: (view ??= detailOf(this.core, now)), changed }));
      return a;
    };
    for (const w of [...set]) {
      const changed = changeOf(w, now, asked);
      if (changed) w.resolve(answerFor(changed));
    }
  }

  wait(runId: string, timeoutMs: number, signal?: AbortSignal): Promise<Outcome<WaitAnswer>> {
    const start = this.core.runs.get(runId);
    if (!start) return Promise.resolve(left(notFound('run', runId)));
    if (start.lifecycle === 'ended') return Promise.resolve(right({ run: detailOf(this.core, start), changed: 'AlreadyEnded' }));
    return new Promise((resolve) => {
      const set = this.waiters.get(runId) ?? new Set<Waiter>();
      this.waiters.set(runId, set);
      const waiter: Waiter = {
        standing: standingOf(start),
        resolve: (answer) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          set.delete(waiter);
          if (set.size === 0 && this.waiters.get(runId) === set) this.waiters.delete(runId);
          resolve(right(answer));
        },
      };
      const onAbort = () => waiter.resolve({ run: detailOf(this.core, this.core.runs.get(runId) ?? start), changed: 'Nothing' });
      const timer = setTimeout(onAbort, timeoutMs);
      set.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
