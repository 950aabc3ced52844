// The hub takes what workers send (lib/workers/dispatcher.ts) one step at a time per step: a
// step's messages are applied in the order they came (its log lines, its work's parts, then its
// result), while another step's need not wait for them. Applying a result puts the worker's work
// into the run folder (a dozen git calls): in one line for every step, each worker's results
// queued behind every other's, and the hub, not the workers, set the pace.

export class StepLanes {
  private readonly tails = new Map<string, Promise<void>>();

  /** `work` after what came before it for `stepId`; a failure ends only its own work */
  run(stepId: string, work: () => Promise<void>): Promise<void> {
    const tail = (this.tails.get(stepId) ?? Promise.resolve()).then(work).catch(() => undefined);
    this.tails.set(stepId, tail);
    // the last in line leaves no entry behind
    void tail.then(() => { if (this.tails.get(stepId) === tail) this.tails.delete(stepId); });
    return tail;
  }
}
