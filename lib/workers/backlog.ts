import type { JsMsg } from '@nats-io/jetstream';

// What workers sent about steps a restarted hub has not taken up yet (docs/workers.md, "The hub is
// killed mid-turn"): held unacked, in the order they came, until the engine takes the step up;
// then each is applied and acked. One the server delivers again while it waits (its ack_wait
// passed) is the same stream sequence, held once.

export class Backlog {
  private readonly held = new Map<string, JsMsg[]>();
  private readonly seen = new Set<number>();

  constructor(private readonly apply: (m: JsMsg) => Promise<void>) {}

  /** messages for this step wait (or are being released): a newer one waits behind them */
  holds(stepId: string): boolean {
    return this.held.has(stepId);
  }

  hold(stepId: string, m: JsMsg): void {
    const seq = m.info.streamSequence;
    if (this.seen.has(seq)) return;
    this.seen.add(seq);
    const list = this.held.get(stepId);
    if (list) list.push(m);
    else this.held.set(stepId, [m]);
  }

  /** the step is taken up: what waited for it, and what comes while it is applied, in order */
  async release(stepId: string): Promise<void> {
    const list = this.held.get(stepId) ?? [];
    for (let m = list.shift(); m; m = list.shift()) {
      await this.apply(m);
      this.seen.delete(m.info.streamSequence);
    }
    this.held.delete(stepId);
  }
}
