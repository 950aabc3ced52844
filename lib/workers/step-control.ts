import type { NatsConnection } from '@nats-io/transport-node';
import type { Turn } from '../harness/adapter.js';
import { ControlCodec, decodeWith } from './remote-messages.js';
import type { Claim } from './step-queue.js';

// The worker's hold on a step it runs (docs/workers.md). It renews its lease with the server (an
// in-progress ack) and at the hub, which answers whether the claim is still the current one; and
// it hears what the hub tells it on svc.to.<worker>.<step>: stop (paused, aborted), or a message
// mid-turn. A stop, or a renewal the hub refuses (its lease lapsed while it was cut off, the step
// ended), ends the turn by its AbortSignal, as a local pause does: the CLI is stopped. A renewal
// that gets no answer (the hub away) changes nothing: the worker goes on and its messages wait in
// the durable stream.

type Ask = (what: string, body: unknown, timeoutMs?: number) => Promise<{ ok: boolean; reason?: string; ended?: boolean }>;

export interface StepHold {
  readonly signal: AbortSignal;
  /** why the turn was stopped (undefined: it was not), and whether the step ended at the hub */
  stopped(): { readonly why: string; readonly ended: boolean } | undefined;
  /** the turn in flight: messages the hub sent before it started are handed to it now */
  attach(turn: Turn): void;
  /**
   * the turn is over and its result sent: the lease is still renewed until the hub answers that
   * the step ended (it applied the result: true) or that this is no longer the current claim
   * (false: the server delivers the step again, so it is not acked). Renewals stop only here: a
   * hub slow to read or apply the result must not see the lease lapse under a finished turn.
   * `gone`: the worker is leaving (its connection closed), nothing more can be known (false).
   */
  settle(gone: () => boolean): Promise<boolean>;
  release(): void;
}

interface Held {
  stop(why: string, ended: boolean): void;
  message(text: string): void;
}

/** one per worker: routes the hub's words to the step they are about */
export const stepControl = (nc: NatsConnection, workerId: string, log: (line: string) => void) => {
  const held = new Map<string, Held>();
  nc.subscribe(`svc.to.${workerId}.>`, {
    callback: (err, m) => {
      if (err) return;
      const h = held.get(m.subject.slice(m.subject.lastIndexOf('.') + 1));
      const c = decodeWith(ControlCodec, m.data, 'a word from the hub');
      if (!h || typeof c === 'string') return;
      if (c.kind === 'stop') h.stop('the hub stopped the step (the run was paused or aborted)', true);
      else h.message(c.text);
    },
  });
  return (claim: Claim, ask: Ask): StepHold => {
    const abort = new AbortController();
    let stopped: { why: string; ended: boolean } | undefined;
    let turn: Turn | undefined;
    const early: string[] = [];
    let settled: ((ended: boolean) => void) | undefined;
    const stop = (why: string, ended: boolean) => {
      if (settled) return settled(ended);
      if (stopped) return;
      stopped = { why, ended };
      log(`step ${claim.stepId}: ${why}; its CLI is stopped`);
      abort.abort();
    };
    let gone = () => false;
    const renew = () => {
      if (settled && gone()) return settled(false);
      claim.renew();
      void ask('renew', { stepId: claim.stepId, token: claim.token }, Math.max(1000, claim.leaseMs / 3))
        .then((r) => { if (!r.ok) stop(`the hub refused its lease: ${r.reason ?? ''}`, r.ended === true); }, () => undefined);
    };
    const timer = setInterval(renew, Math.max(500, Math.min(5_000, claim.leaseMs / 3)));
    const release = () => { clearInterval(timer); held.delete(claim.stepId); };
    held.set(claim.stepId, { stop, message: (text) => (turn ? void turn.send(text) : void early.push(text)) });
    return {
      signal: abort.signal,
      stopped: () => stopped,
      attach: (t) => { turn = t; for (const text of early.splice(0)) t.send(text); },
      settle: (isGone) => new Promise<boolean>((resolve) => {
        gone = isGone;
        settled = (ended) => { release(); resolve(ended); };
        // asked at once: a hub that applied the result already says so now, not a renewal later
        renew();
      }),
      release,
    };
  };
};
