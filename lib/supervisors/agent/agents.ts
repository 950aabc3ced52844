// The live supervisors: one turn at a time per supervisor, woken by what lands in the journal
// (a person's message, an approval decision, a hand_up, events on runs it owns). Wakes that land
// during a turn wait in the chat and are all given to the next turn. Held wakes (switched off,
// paused, at the limit) wait too, and the chat says why once. Everything is in the chat stream
// first, so a crash loses nothing: a turn started and never ended is recorded as interrupted on
// the next start and runs again over the same entries.
import { CHAT_AGENT_EVENT_CODECS } from '../../../journal/chat-agent-events.js';
import { decodeStored, isUnreadable } from '../../../journal/decode.js';
import type { Journal, NewEvent, Stored } from '../../../journal/journal.js';
import { EMPTY_TURNS, evolveTurns, hasPendingWake, type TurnsState } from '../../../projections/supervisor-turns.js';
import type { HarnessName } from '../../../domain/workflow.js';
import { runWithFallbacks, type FallbackResult } from './fallback.js';
import { entryLines } from './lines.js';
import type { AgentSupervisor, SupervisorsPort } from './port.js';
import { turnCost, turnTokens } from '../../usage/prices.js';
import type { PriceRow } from '../../../domain/prices.js';
import { supervisorPrompt } from './prompt.js';
import type { SupervisorTurnDeps } from './turn.js';
import { runWakes } from './wakes.js';
import { decodeAppend } from '../../../journal/typed-subscribe.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../../journal/run-events.js';

export interface AgentDeps {
  readonly journal: Journal;
  readonly port: SupervisorsPort;
  readonly turn: SupervisorTurnDeps;
  readonly prices: () => readonly PriceRow[];
  readonly defaultHarness: () => HarnessName;
  newId(prefix: string): string;
  now(): Date;
}

const STOPPED = 'the server stopped during the turn; it runs again';

/** a fresh session gets this many recent entries instead of only the new ones */
const FRESH_HISTORY = 30;

export class SupervisorAgents {
  private readonly states = new Map<string, TurnsState>();
  private readonly busy = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private unsubscribe: (() => void) | null = null;
  private clock: NodeJS.Timeout | null = null;
  private stopping = false;
  private stopReason = STOPPED;

  constructor(private readonly deps: AgentDeps) {}

  start(): void {
    for (const s of this.deps.port.list()) this.recover(s.id);
    this.unsubscribe = this.deps.journal.subscribe((stream, events) => this.landed(stream, events));
    for (const s of this.deps.port.list()) this.later(s.id);
    // a pause for the day and a day's spending end with the clock, not with an event
    this.clock = setInterval(() => this.poke(), 60_000);
    this.clock.unref();
  }

  /** reason: what the chat says of a turn cut off by this stop (it runs again later) */
  async stop(reason = STOPPED): Promise<void> {
    this.stopping = true;
    this.stopReason = reason;
    this.unsubscribe?.();
    if (this.clock) clearInterval(this.clock);
    for (const b of this.busy.values()) b.abort.abort();
    await Promise.all([...this.busy.values()].map((b) => b.done));
  }

  /** a person's message: recorded in the chat, which wakes the supervisor */
  write(id: string, text: string, sender: string | null): Stored | undefined {
    return this.append(id, [{ type: 'PersonWrote', data: { text, sender } }])[0];
  }

  /** while the loop is not running: the chat says once why a wake waits */
  sayHeld(id: string): void {
    const held = this.deps.port.heldBecause(id);
    if (held && this.state(id).heldReason !== held) this.append(id, [{ type: 'WakesHeld', data: { reason: held } }]);
  }

  state(id: string): TurnsState {
    const stream = this.deps.port.chatStream(id);
    let s = this.states.get(id) ?? EMPTY_TURNS;
    const fold = evolveTurns((t) => t === 'PersonWrote' || t === 'WakeNoticed' || this.deps.port.isWake(t));
    for (const e of this.deps.journal.read(stream, s.head + 1)) s = fold(s, this.decoded(e));
    this.states.set(id, s);
    return s;
  }

  // Our own entries are decoded here (the journal-read boundary); the records' entries (cards, actions) go to their own words.
  private decoded(e: Stored): Stored {
    if (!Object.prototype.hasOwnProperty.call(CHAT_AGENT_EVENT_CODECS, e.type)) return e;
    const d = decodeStored(CHAT_AGENT_EVENT_CODECS, e);
    return isUnreadable(d) ? { ...e, type: 'Unreadable', data: { detail: d.detail } } : e;
  }

  /** anything else the agent's turns depend on moved (settings, unpaused): look again */
  poke(id?: string): void {
    for (const s of id ? [id] : this.deps.port.list().map((x) => x.id)) this.later(s);
  }

  private append(id: string, events: readonly NewEvent[]): Stored[] {
    const stream = this.deps.port.chatStream(id);
    const at = this.deps.now().toISOString();
    // the chat is written by this loop, the HTTP route and the supervisor tools: retry on a moved head
    for (;;) {
      const r = this.deps.journal.append(stream, this.deps.journal.head(stream), events, at);
      if (r._tag === 'Appended') return [...r.events];
    }
  }

  private recover(id: string): void {
    const s = this.state(id);
    if (s.inFlight) this.append(id, [{ type: 'TurnInterrupted', data: { turnId: s.inFlight.turnId, reason: STOPPED } }]);
  }

  // Listeners run inside the journal's notify: act a tick later, never re-entering an append.
  private later(id: string): void {
    if (!this.stopping) setImmediate(() => this.pump(id));
  }

  private landed(stream: string, events: readonly Stored[]): void {
    const chatOf = this.deps.port.chatOwner(stream);
    if (chatOf) return this.later(chatOf);
    if (!stream.startsWith('run:')) return this.poke(); // supervisor settings, the ledger, the feature switch
    const runId = stream.slice(4);
    const wakes = runWakes(runId, decodeAppend<RunEvent>(RUN_EVENT_CODECS, events));
    if (!wakes.length) return;
    const owner = this.deps.port.ownerOf(runId);
    const sup = owner ? this.deps.port.find(owner) : undefined;
    const on = sup ? wakes.filter((w) => sup.wakeOn[w.kind]) : [];
    if (sup && on.length) setImmediate(() => this.append(sup.id, on.map((w) => ({ type: 'WakeNoticed', data: w }))));
  }

  private pump(id: string): void {
    if (this.stopping || this.busy.has(id)) return;
    const sup = this.deps.port.find(id);
    const s = this.state(id);
    if (!sup || !hasPendingWake(s)) return;
    const held = this.deps.port.heldBecause(id);
    if (held) {
      if (s.heldReason !== held) this.append(id, [{ type: 'WakesHeld', data: { reason: held } }]);
      return;
    }
    const abort = new AbortController();
    const done = this.turn(sup, s, abort).finally(() => (this.busy.delete(id), this.later(id)));
    this.busy.set(id, { abort, done });
  }

  private prompts(sup: AgentSupervisor, s: TurnsState): { resumed: string; fresh: string } {
    const stream = this.deps.port.chatStream(sup.id);
    const lines = (from: number) => entryLines(this.deps.journal.read(stream, from, s.head), (t, d) => this.deps.port.describe(t, d));
    const base = { notes: sup.notes, runs: this.deps.port.ownedRuns(sup.id) };
    return {
      resumed: supervisorPrompt({ ...base, since: lines(s.coveredUpTo + 1) }),
      fresh: supervisorPrompt({ ...base, since: lines(Math.max(1, Math.min(s.coveredUpTo + 1, s.head - FRESH_HISTORY))) }),
    };
  }

  private async turn(sup: AgentSupervisor, s: TurnsState, abort: AbortController): Promise<void> {
    const turnId = this.deps.newId('t');
    const harness = sup.harness ?? this.deps.defaultHarness();
    const session = s.session?.harness === harness ? s.session : undefined;
    const resumeSession = session?.id;
    const model = sup.model ?? undefined;
    const { resumed, fresh } = this.prompts(sup, s);
    this.append(sup.id, [{ type: 'TurnStarted', data: { turnId, harness, upTo: s.head, ...(model ? { model } : {}), ...(resumeSession ? { resumeSession } : {}) } }]);
    const r = await runWithFallbacks(this.deps.turn, {
      supervisorId: sup.id, key: sup.key, turnId, harness, ...(model ? { model } : {}),
      ...(session ? { resumeSession: session.id, ...(session.totals ? { sessionTotals: session.totals } : {}) } : {}),
      prompt: resumeSession ? resumed : fresh, freshPrompt: fresh, quotaFallbacks: sup.quotaFallbacks, signal: abort.signal,
      onReply: (text) => this.append(sup.id, [{ type: 'SupervisorReplied', data: { turnId, text } }]),
      onFallback: (from, to, why) => this.append(sup.id, [{ type: 'TurnFellBack', data: { turnId, from, to, why } }]),
    });
    this.ended(sup, turnId, r, r.harness === harness ? model : undefined, abort.signal.aborted);
  }

  private ended(sup: AgentSupervisor, turnId: string, r: FallbackResult, model: string | undefined, stopped: boolean): void {
    if (stopped && r.outcome === 'interrupted') {
      this.append(sup.id, [{ type: 'TurnInterrupted', data: { turnId, reason: this.stopReason } }]);
      return;
    }
    const cost = turnCost(r.harness, model, r, this.deps.prices());
    const session = r.sessionId ? { sessionId: r.sessionId, ...(r.sessionTotals ? { sessionTotals: r.sessionTotals } : {}) } : {};
    const data = { turnId, harness: r.harness, outcome: r.outcome, summary: r.summary, cost, ...(r.failure ? { failure: r.failure } : {}), ...session };
    this.append(sup.id, [{ type: 'TurnEnded', data }]);
    const usage = { tokens: turnTokens(r.harness, r.usage), harness: r.harness, ...(model ? { model } : {}) };
    this.deps.port.recordCost(sup.id, turnId, cost, this.deps.now().toISOString(), usage);
    this.sayHeld(sup.id); // e.g. this turn reached today's limit: say so now
  }
}
