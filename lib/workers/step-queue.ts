import { millis, nanos, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager, RetentionPolicy, type JsMsg } from '@nats-io/jetstream';
import { pinnedConsumer, STEP_CONSUMER, STEP_STREAM } from './nats-config.js';

// The queue agent steps are dispatched through (docs/workers.md, "Run on"). One work-queue
// stream; one pull consumer all workers share (for placement on any worker, not used by the
// engine yet) and one per worker for the steps pinned to it: a claim is a
// pull, the lease is the in-progress ack (`working()`) the claimer renews, a claim whose lease
// lapses is delivered again after `ackWaitMs`, and after `maxDeliver` deliveries the server
// gives up and says so in an advisory. The delivery number is the claim's fencing token:
// JetStream does not fence (a late ack is taken), so the hub's journal must.
//
// The advisory names only the message's sequence. It is kept in a stream of its own (SVC_GIVEN_UP)
// so one published while no hub listens (svc restarted) is heard by the next; the step is read off
// the message itself, which stays in the work queue after its last delivery until deleted, so the
// match needs nothing a hub kept in memory.

const SUBJECT = 'svc.steps';
// a step any worker may take, and a step pinned to one worker (a project's "Run on"): separate
// subjects, so each consumer's filter is its own (a work queue takes no overlapping filters)
const ANY = `${SUBJECT}.any`;
const pinnedSubject = (workerId: string): string => `${SUBJECT}.to.${workerId}`;
const GIVEN_UP_STREAM = 'SVC_GIVEN_UP';
const stepOfSubject = (subject: string): string => subject.slice(subject.lastIndexOf('.') + 1);

export interface QueueOptions {
  readonly ackWaitMs: number;
  readonly maxDeliver: number;
  /** at most this many steps claimed and not yet done across the pool (backpressure) */
  readonly maxAckPending: number;
}

/** the hub's side: make the stream and consumer, dispatch, hear of steps the pool gave up on */
export const openStepQueue = async (nc: NatsConnection, o: QueueOptions) => {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: STEP_STREAM, subjects: [`${SUBJECT}.>`], retention: RetentionPolicy.Workqueue });
  const consumer = (name: string, filter: string) => jsm.consumers.add(STEP_STREAM, {
    durable_name: name, ack_policy: AckPolicy.Explicit, filter_subject: `${filter}.>`,
    ack_wait: nanos(o.ackWaitMs), max_deliver: o.maxDeliver, max_ack_pending: o.maxAckPending,
  });
  await consumer(STEP_CONSUMER, ANY);
  await jsm.streams.add({ name: GIVEN_UP_STREAM, subjects: [`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${STEP_STREAM}.*`], retention: RetentionPolicy.Workqueue });
  await jsm.consumers.add(GIVEN_UP_STREAM, { durable_name: 'hub', ack_policy: AckPolicy.Explicit });
  const pinned = new Set<string>();
  const js = jetstream(nc);
  return {
    /**
     * the step's id is its message id: a dispatch repeated (a hub restarted mid-dispatch) is stored
     * once. `to`: only this worker may claim it (its own consumer, made on its first pinned step).
     */
    async dispatch(stepId: string, job: Uint8Array, to?: string, msgID = stepId): Promise<{ seq: number; duplicate: boolean }> {
      if (to && !pinned.has(to)) (await consumer(pinnedConsumer(to), pinnedSubject(to)), pinned.add(to));
      const ack = await js.publish(`${to ? pinnedSubject(to) : ANY}.${stepId}`, job, { msgID });
      return { seq: ack.seq, duplicate: ack.duplicate };
    },
    /** a step taken off the queue before any worker finished it (its run was moved elsewhere) */
    async withdraw(seq: number): Promise<void> {
      await jsm.streams.deleteMessage(STEP_STREAM, seq).catch(() => false);
    },
    /**
     * the hub pulls from a lost worker's own queue: a step it never claimed comes at once, a step it
     * claimed only once its lease has lapsed (ack_wait after its last renewal). Null: nothing came.
     */
    async reclaim(workerId: string, waitMs: number): Promise<{ stepId: string; done(): void; back(): void } | null> {
      if (!pinned.has(workerId)) return null;
      const m = await (await js.consumers.get(STEP_STREAM, pinnedConsumer(workerId))).next({ expires: Math.max(1000, waitMs) });
      if (!m) return null;
      return { stepId: stepOfSubject(m.subject), done: () => m.ack(), back: () => m.nak() };
    },
    /**
     * calls `lost(stepId)` for each step the pool gave up on (its last delivery's lease lapsed),
     * also for an advisory published before this hub started. `lost` answers false for a step it
     * cannot end yet (a restarted hub has not taken it up): the advisory comes again a moment later.
     */
    onGivenUp(lost: (stepId: string) => boolean): void {
      void (async () => {
        for await (const m of await (await js.consumers.get(GIVEN_UP_STREAM, 'hub')).consume()) {
          const seq = (m.json() as { stream_seq?: number }).stream_seq;
          const stored = seq === undefined ? null : await jsm.streams.getMessage(STEP_STREAM, { seq }).catch(() => null);
          if (stored && seq !== undefined && !lost(stepOfSubject(stored.subject))) {
            m.nak(1000);
            continue;
          }
          // out of the work queue, so it is not held there for ever
          if (stored && seq !== undefined) await jsm.streams.deleteMessage(STEP_STREAM, seq).catch(() => undefined);
          m.ack();
        }
      })().catch(() => undefined);
    },
  };
};

export interface Claim {
  readonly stepId: string;
  readonly job: Uint8Array;
  /** the delivery number: the fencing token a result must carry */
  readonly token: number;
  /** the lease: it lapses this long after the last renewal (the consumer's ack_wait) */
  readonly leaseMs: number;
  /** renew the lease (an in-progress ack) */
  renew(): void;
  /** the step is done: out of the queue */
  done(): void;
}

const claimOf = (m: JsMsg, leaseMs: number): Claim => ({
  stepId: stepOfSubject(m.subject), job: m.data, token: m.info.deliveryCount, leaseMs,
  renew: () => m.working(), done: () => m.ack(),
});

/** a worker's side: one claim, when it has a free slot (null when none came within `waitMs`); `pinnedTo`: its own steps */
export const claimStep = async (nc: NatsConnection, waitMs: number, pinnedTo?: string): Promise<Claim | null> => {
  const c = await jetstream(nc).consumers.get(STEP_STREAM, pinnedTo ? pinnedConsumer(pinnedTo) : STEP_CONSUMER);
  const m = await c.next({ expires: Math.max(1000, waitMs) });
  const ackWait = m ? (await c.info(true)).config.ack_wait : undefined;
  return m ? claimOf(m, ackWait ? millis(ackWait) : 30_000) : null;
};
