import type { Database, Key } from 'lmdb';
import type { Store } from '../../journal/store.js';

// What a worker sent that the hub has applied, by the message's id (docs/workers.md, "The hub is
// killed mid-turn"). SVC_OUT delivers at least once: a message applied just before the hub was
// killed, and not yet acked, comes again. Its id is recorded in the same LMDB transaction as the
// events and lines applying it wrote (the journal's appends nest in it), so after any kill either
// both are there or neither is, and a message whose id is there is skipped, not applied again.
// These are not events: an index of what was taken, like the log's lines, never folded.

export class AppliedMessages {
  private readonly db: Database<string, Key>;

  constructor(private readonly store: Store) {
    this.db = store.db<string>('dispatch-applied');
  }

  /**
   * Runs `apply` inside the one transaction that records `id`; false, and nothing run, when `id`
   * was recorded before (a redelivery). `apply` must be synchronous: its writes are the
   * transaction's. A throw in it is logged, not rolled back: state in memory already moved with it.
   */
  once(id: string, at: string, apply: () => void): boolean {
    return this.store.root.transactionSync(() => {
      if (this.db.get(id) !== undefined) return false;
      this.db.putSync(id, at);
      try {
        apply();
      } catch (e) {
        console.error(`svc: a worker's message could not be applied: ${String(e)}`);
      }
      return true;
    });
  }

  /**
   * Drops the ids recorded before `before` (ISO time) that `done` says no redelivery can need any
   * more (their step has ended: the hub acked its messages then, and one killed before its ack is
   * given them again at its next start, not days later). How many went.
   */
  prune(before: string, done: (id: string) => boolean): number {
    return this.store.root.transactionSync(() => {
      let dropped = 0;
      for (const { key, value } of this.db.getRange()) {
        if (typeof key !== 'string' || value >= before || !done(key)) continue;
        this.db.removeSync(key);
        dropped++;
      }
      return dropped;
    });
  }
}
