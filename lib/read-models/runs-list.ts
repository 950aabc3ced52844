import { randomBytes } from 'node:crypto';
import type { Journal } from '../../journal/journal.js';
import type { RunState } from '../../projections/run-state.js';
import { httpRun } from './run-views.js';
import type { HttpRun } from '../../projections/run-shapes.js';
import type { RunStreams } from '../state/run-stream.js';

// The body of GET /api/runs, kept up to date one run at a time: an append re-serialises only the
// run it touched, and the body is joined again only when something changed since the last read.
// `version` names the body's content cheaply (no hashing): it moves whenever an entry changes, and
// carries this process's own nonce, since the counter starts again at every start.

/** A run as the list shows it: `outcome` appears only when a run is read singly (spec). */
export const listedRun = (s: RunState): Omit<HttpRun, 'outcome'> => {
  const { outcome: _outcome, ...rest } = httpRun(s);
  return rest;
};

export class RunsListCache {
  private readonly entries = new Map<string, string>();
  /** every run id, ascending (ids are time-ordered); the list shows them newest first */
  private readonly order: string[] = [];
  private readonly known = new Set<string>();
  private body: string | null = null;
  private readonly boot = randomBytes(6).toString('base64url');
  private changes = 0;

  constructor(private readonly runs: RunStreams, journal: Journal) {
    for (const s of runs.all()) this.put(s);
    journal.subscribe((stream) => {
      if (!stream.startsWith('run:')) return;
      const s = runs.get(stream.slice(4));
      if (s) this.put(s);
    });
  }

  private put(s: RunState): void {
    if (!this.known.has(s.runId)) {
      this.known.add(s.runId);
      this.insert(s.runId);
    }
    const before = this.entries.get(s.runId);
    const entry = s.archived ? undefined : JSON.stringify(listedRun(s));
    if (entry === before) return;
    if (entry === undefined) this.entries.delete(s.runId);
    else this.entries.set(s.runId, entry);
    this.body = null;
    this.changes++;
  }

  /** The run's list row as JSON text (undefined for an archived run): the board builds on it. */
  entry(runId: string): string | undefined {
    return this.entries.get(runId);
  }

  /** Names the current body: equal versions, equal bodies (within one process and across restarts). */
  get version(): string {
    return `${this.boot}-${this.changes}`;
  }

  // New ids are nearly always the largest, so this is a push; a binary search places the rest.
  private insert(id: string): void {
    const last = this.order[this.order.length - 1];
    if (last === undefined || last < id) return void this.order.push(id);
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    this.order.splice(lo, 0, id);
  }

  json(): string {
    if (this.body !== null) return this.body;
    const parts: string[] = [];
    for (let i = this.order.length - 1; i >= 0; i--) {
      const entry = this.entries.get(this.order[i]!);
      if (entry !== undefined) parts.push(entry);
    }
    this.body = `[${parts.join(',')}]`;
    return this.body;
  }
}
