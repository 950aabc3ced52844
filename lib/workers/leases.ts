import type { NatsConnection } from '@nats-io/transport-node';
import { encode } from './messages.js';
import type { Control } from './remote-messages.js';
import type { Fence } from './dispatch-port.js';

// The hub's clock on each claim's lease (docs/workers.md). JetStream redelivers a step whose
// in-progress acks stop, but it does not fence: a partitioned worker's late ack is taken. So the
// hub keeps its own lease: a claim not renewed at the hub for a lease's length is recorded lapsed
// (StepLeaseLapsed); from then on the worker's renewals are answered "not the current claim", it
// stops its CLI, and what it sends is discarded. The step waits for its next delivery.

type Claim = { readonly stepId: string; readonly workerId: string; readonly token: number };

export class Leases {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** steps whose current claim's result the hub holds: their lease no longer runs */
  private readonly inHand = new Set<string>();

  constructor(private readonly fence: Fence, private readonly ms: number, private readonly log: (stepId: string, text: string) => void) {}

  /** the claim was taken or renewed: its lease runs `ms` from now */
  renewed(c: Claim): void {
    if (this.inHand.has(c.stepId)) return;
    clearTimeout(this.timers.get(c.stepId));
    this.timers.set(c.stepId, setTimeout(() => this.lapse(c), this.ms).unref());
  }

  /**
   * The current claim's result reached the hub: the worker's part is done, and the lease stops
   * while its work goes into the run folder (a dozen git calls, slow on a busy machine). A lease
   * that lapsed then refused the result of a finished turn, and the step was never run again.
   */
  resultInHand(stepId: string): void {
    this.end(stepId);
    this.inHand.add(stepId);
  }

  end(stepId: string): void {
    clearTimeout(this.timers.get(stepId));
    this.timers.delete(stepId);
    this.inHand.delete(stepId);
  }

  private lapse(c: Claim): void {
    this.timers.delete(c.stepId);
    if (!this.fence.holds(c)) return;
    this.fence.lapsed(c);
    this.log(c.stepId, `[hub] worker ${c.workerId} did not renew its claim (delivery ${c.token}) for ${this.ms} ms: its lease lapsed; the step is delivered again`);
  }
}

/** the hub to a worker about a step it runs (svc.to.<worker>.<step>): stop its CLI, or a message mid-turn */
export const tell = (nc: NatsConnection, workerId: string, stepId: string, c: Control): void =>
  nc.publish(`svc.to.${workerId}.${stepId}`, encode(c));
