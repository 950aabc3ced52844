import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Journal } from '../../journal/journal.js';
import type { Planned, StalePolicy } from './event-stream.js';

// What two streams record about each other is written in one transaction (Journal.appendAll):
// a follow-up and the run it continues, a restart and the run it restarts, a kept attempt and the
// siblings it archived, a trigger rule's event and the run it started. A crash leaves both sides
// or neither. Each stream's part is decided on its state now (EventStream.plan); a stale stream
// leaves every stream as it was, and the whole is decided again (retry) or answered Stale (refuse).

export type Together = { readonly _tag: 'Appended' | 'Unchanged' | 'Stale' };

const MAX_TRIES = 5;

/** the parts, or the first refusal among them */
export const parts = <L>(...planned: readonly Either<L, Planned | null>[]): Either<L, Planned[]> => {
  const out: Planned[] = [];
  for (const p of planned) {
    if (isLeft(p)) return left(p.left);
    if (p.right) out.push(p.right);
  }
  return right(out);
};

export const transactTogether = <L>(journal: Journal, plan: () => Either<L, readonly Planned[]>, o: { readonly at: string; readonly onStale: StalePolicy }): Either<L, Together> => {
  for (let tries = 1; ; tries++) {
    const p = plan();
    if (isLeft(p)) return p;
    if (p.right.length === 0) return right({ _tag: 'Unchanged' });
    let appended: boolean;
    try {
      appended = journal.appendAll(p.right.map((x) => x.write), o.at)._tag === 'Appended';
    } catch (err) {
      for (const x of p.right) x.undo();
      throw err;
    }
    if (appended) return right({ _tag: 'Appended' });
    for (const x of p.right) x.moved();
    if (o.onStale === 'refuse' || tries >= MAX_TRIES) return right({ _tag: 'Stale' });
  }
};
