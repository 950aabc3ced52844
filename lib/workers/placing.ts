import type { Workers } from '../../projections/workers.js';
import { placeStep, type Seat } from './placement.js';
import type { Pending, SeatFacts } from './dispatch-port.js';

// The hub's placing of dispatched steps (docs/workers.md, "Run on"): each step waits in line until
// placement.ts names a worker for it; a worker is given no more steps than its slots (what this hub
// has placed there, or what its heartbeat says, whichever is more), so the rest wait here and each
// run's log says where it stands in line. A step placed on a worker that is lost is taken back from
// that worker's queue (a step it claimed only once its lease lapsed there) and placed again,
// avoiding that worker, as the next attempt; pinned steps stay with their worker.

export interface Reclaimed { readonly stepId: string; done(): void; back(): void }

export interface PlacingPort {
  seats(): Promise<readonly SeatFacts[]>;
  /** put the step on its worker's queue (its `place` says which, and the attempt) */
  publish(p: Pending): Promise<void>;
  /** pull from a lost worker's queue (lib/workers/step-queue.ts reclaim) */
  reclaim(workerId: string): Promise<Reclaimed | null>;
  /** the step's last attempt lapsed too: it fails ("worker lost") */
  lose(stepId: string, reason: string): void;
  /** the step is pinned to a worker that is not online: it waits for it (recorded once) */
  awaiting(stepId: string, workerId: string): void;
  readonly maxAttempts: number;
}

/** the workers as the hub sees them now: what each announced (the journal) and whether its heartbeat is live (presence) */
export const seatsOf = (workers: Workers, present: readonly { workerId: string; heartbeat: { slots: number; busy: number } }[]): SeatFacts[] => {
  const live = new Map(present.map((p) => [p.workerId, p.heartbeat]));
  return [...workers.values()].flatMap((w) => (w.revoked || !w.announced ? [] : [{
    workerId: w.workerId, online: live.has(w.workerId), slots: live.get(w.workerId)?.slots ?? w.announced.slots,
    busy: live.get(w.workerId)?.busy ?? 0, harnesses: w.announced.harnesses,
  }]));
};

const SEATS_MS = 5_000;

const within = <A>(p: Promise<A>, ms: number): Promise<A> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
};

const ordinal = (n: number): string => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

const pinnedHere = (p: Pending): boolean => p.place.ask.runPin !== undefined || p.place.ask.runOn !== 'any';

export class Placer {
  private readonly waiting: string[] = [];
  private readonly reclaiming = new Set<string>();
  /** the workers online at the last look; none until the first */
  private online: ReadonlySet<string> | null = null;
  private ticking: Promise<void> | null = null;

  constructor(private readonly pending: ReadonlyMap<string, Pending>, private readonly port: PlacingPort) {}

  enqueue(stepId: string): void {
    if (!this.waiting.includes(stepId)) this.waiting.push(stepId);
    void this.tick();
  }

  /** the steps waiting for a worker, in line */
  line(): { runId: string; stepId: string; position: number; why: string }[] {
    return this.waiting.flatMap((stepId, i) => {
      const p = this.pending.get(stepId);
      return p ? [{ runId: p.input.runId, stepId, position: i + 1, why: p.place.waits ?? 'not placed yet' }] : [];
    });
  }

  /** place what waits, take back what sits on lost workers; one at a time */
  tick(): Promise<void> {
    this.ticking ??= this.once().catch((e: unknown) => console.error(`svc: placing steps: ${String(e)}`)).finally(() => { this.ticking = null; });
    return this.ticking;
  }

  private async once(): Promise<void> {
    // a read of presence that never answers (seen once, a KV listing while the server was busy)
    // must not hold the line for ever: this tick gives up and the next reads again
    const facts = await within(this.port.seats(), SEATS_MS);
    const placed = new Map<string, number>();
    for (const p of this.pending.values()) if (p.place.workerId) placed.set(p.place.workerId, (placed.get(p.place.workerId) ?? 0) + 1);
    const seats: Seat[] = facts.map((f) => ({ ...f, inUse: Math.max(f.busy, placed.get(f.workerId) ?? 0) }));
    const online = new Set(facts.filter((f) => f.online).map((f) => f.workerId));
    this.online = online;
    this.takeBack(online);
    for (const stepId of [...this.waiting]) await this.placeOne(stepId, seats);
    this.markAway(online);
  }

  /** whether the worker was not online at the last look (false before the first) */
  away(workerId: string): boolean {
    return this.online !== null && !this.online.has(workerId);
  }

  // a step that only its worker may take (pinned, or its run moved there) waits in that worker's
  // queue while the worker is away: recorded, so the run says what it waits for and since when
  private markAway(online: ReadonlySet<string>): void {
    for (const [stepId, p] of this.pending) if (p.place.workerId && pinnedHere(p) && !online.has(p.place.workerId)) this.port.awaiting(stepId, p.place.workerId);
  }

  private async placeOne(stepId: string, seats: Seat[]): Promise<void> {
    const p = this.pending.get(stepId);
    if (!p) return void this.waiting.splice(this.waiting.indexOf(stepId), 1);
    const choice = placeStep({ ...p.place.ask, avoid: p.place.avoid }, seats);
    if (choice._tag !== 'Worker') {
      p.place.waits = choice._tag === 'Wait' ? choice.why : 'it runs here';
      const why = `waiting for a worker, ${ordinal(this.waiting.indexOf(stepId) + 1)} in line: ${p.place.waits}`;
      if (why !== p.place.told) (p.place.told = why, p.input.onLog({ text: `[hub] ${why}` }));
      return;
    }
    this.waiting.splice(this.waiting.indexOf(stepId), 1);
    const seat = seats.find((s) => s.workerId === choice.workerId);
    if (seat) seats[seats.indexOf(seat)] = { ...seat, inUse: seat.inUse + 1 };
    p.place.workerId = choice.workerId;
    p.input.onLog({ text: `[hub] attempt ${p.place.attempt + 1} placed on worker ${choice.workerId} (${choice.why})` });
    try {
      await this.port.publish(p);
    } catch (e) {
      // not on its worker's queue after all (the server away a moment): back to the head of the line
      p.input.onLog({ text: `[hub] the step could not be put on worker ${choice.workerId}'s queue (${String(e)}); it waits in line again` });
      p.place.workerId = undefined;
      this.waiting.unshift(stepId);
    }
  }

  // a lost worker's steps (placed there by `any`) come back once its lease on them has lapsed
  private takeBack(online: ReadonlySet<string>): void {
    const lost = new Set([...this.pending.values()].filter((p) => p.place.workerId && !online.has(p.place.workerId) && !pinnedHere(p)).map((p) => p.place.workerId!));
    for (const workerId of lost) {
      if (this.reclaiming.has(workerId)) continue;
      this.reclaiming.add(workerId);
      void this.port.reclaim(workerId).then((m) => m && this.again(workerId, m)).catch(() => undefined).finally(() => this.reclaiming.delete(workerId));
    }
  }

  private again(workerId: string, m: Reclaimed): void {
    const p = this.pending.get(m.stepId);
    if (p && pinnedHere(p)) return m.back();
    m.done();
    if (!p || p.place.workerId !== workerId) return;
    p.place.avoid.push(workerId);
    p.place.workerId = undefined;
    if (++p.place.attempt >= this.port.maxAttempts) return this.port.lose(m.stepId, `worker lost: its lease lapsed on ${p.place.attempt} workers`);
    p.input.onLog({ text: `[hub] worker ${workerId} is lost and its lease on the step lapsed: the step is redone from its start` });
    this.enqueue(m.stepId);
  }
}
