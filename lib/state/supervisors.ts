import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideHeld } from '../../commands/supervisor-held.js';
import { decideChangeSupervisor, decideCreateSupervisor, decideKeepNotes, decideRecordCost, decideRegenerateKey, type SupervisorDecision } from '../../commands/supervisor-settings.js';
import { notFound, type Outcome } from '../../commands/refusal.js';
import type { Journal } from '../../journal/journal.js';
import type { SupervisorCost, SupervisorTurnUsage } from '../../journal/supervisor-events.js';
import { ownerOf, ownerOfNewRun, type OwnedRun } from '../../projections/ownership.js';
import { findProject, type Projects } from '../../projections/projects.js';
import type { RunState } from '../../projections/run-state.js';
import { spentOn, type SupervisorState } from '../../projections/supervisor.js';
import type { Settings, SettingSource } from '../../domain/settings.js';
import type { RunStreams } from './run-stream.js';
import { SupervisorKeys } from './supervisor-keys.js';
import { localDay, nextLocalMidnight, type SupervisorPatch } from '../../domain/supervisor.js';
import { openSupervisorStreams, supervisorsInOrder, type SupervisorStreams } from './supervisor-streams.js';

// The supervisors' records: the one door the HTTP routes, the tool endpoint and the live agent's
// port use. It holds no rule of its own: it finds the state, asks a decide, appends, and maps.

export interface SupervisorsDeps {
  readonly journal: Journal;
  readonly home: string;
  readonly runs: RunStreams;
  readonly projects: () => Projects;
  readonly settings: () => Settings;
  now(): Date;
  newId(prefix: string): string;
}

/** a change as a person sends it: `paused` pauses for the day (until the next local midnight); `notes` replaces the notes */
export type SupervisorChange = Omit<SupervisorPatch, 'pausedUntil'> & { readonly paused?: boolean; readonly notes?: string };

export interface SupervisorView {
  readonly id: string;
  readonly project: string | null;
  readonly key: string;
  readonly enabled: boolean;
  readonly pausedUntil: string | null;
  readonly actions: SupervisorState['settings']['actions'];
  readonly runCap: number;
  readonly dailyLimitUsd: number;
  readonly spentTodayUsd: number;
  readonly quotaFallbacks: SupervisorState['settings']['quotaFallbacks'];
  readonly harness: SupervisorState['settings']['harness'];
  readonly model: string | null;
  readonly wakeOn: SupervisorState['settings']['wakeOn'];
  readonly notes: string;
  readonly runsAtWork: number;
  /** why its actions are refused now (switched off, paused for the day, or at today's spending limit), or null */
  readonly heldBecause: string | null;
}

export class Supervisors {
  readonly store: SupervisorStreams;
  readonly keys: SupervisorKeys;

  constructor(private readonly deps: SupervisorsDeps) {
    this.store = openSupervisorStreams(deps.journal);
    this.keys = new SupervisorKeys(deps.home);
    // a supervisor whose key file went missing gets a fresh key rather than none
    for (const s of this.store.all()) if (!this.keys.get(s.id)) this.keys.issue(s.id);
  }

  get(id: string): SupervisorState | undefined {
    return this.store.get(id);
  }

  all(): SupervisorState[] {
    return supervisorsInOrder(this.store);
  }

  featureOn(): boolean {
    return this.deps.settings().supervisors.enabled;
  }

  /** the supervisor a key names, or undefined */
  byKey(key: string): SupervisorState | undefined {
    const id = this.keys.owner(key);
    return id ? this.store.get(id) : undefined;
  }

  list(): SupervisorView[] {
    return this.all().map((s) => this.viewOf(s));
  }

  view(id: string): Outcome<SupervisorView> {
    const s = this.get(id);
    return s ? right(this.viewOf(s)) : left(notFound('supervisor', id));
  }

  /** project: a project id or name; null for the global supervisor */
  create(projectRef: string | null, source: SettingSource): Outcome<SupervisorView> {
    const project = projectRef === null ? undefined : findProject(this.deps.projects(), projectRef);
    const projectId = projectRef === null ? null : (project?.id ?? projectRef);
    const existing = this.all().find((s) => s.project === projectId)?.id ?? null;
    const d = decideCreateSupervisor({ supervisorId: this.deps.newId('s'), project: projectId, projectExists: project !== undefined, existing, source });
    if (isLeft(d)) return d;
    const first = d.right[0]!;
    const id = first.type === 'SupervisorCreated' ? first.data.supervisorId : '';
    this.keys.issue(id);
    return this.apply(id, d);
  }

  /** the global supervisor exists once the feature has been switched on */
  ensureGlobal(source: SettingSource): void {
    if (!this.all().some((s) => s.project === null)) this.create(null, source);
  }

  /** settings and notes change together or not at all: both are decided before either is appended */
  change(id: string, c: SupervisorChange, source: SettingSource): Outcome<SupervisorView> {
    const { paused, notes, ...rest } = c;
    const patch: SupervisorPatch = paused === undefined ? rest : { ...rest, pausedUntil: paused ? nextLocalMidnight(this.deps.now()) : null };
    const s = this.get(id) ?? null;
    const settings = decideChangeSupervisor(s, { supervisorId: id, patch, source });
    if (isLeft(settings) || notes === undefined) return this.apply(id, settings);
    const kept = decideKeepNotes(s, { supervisorId: id, text: notes, source });
    return isLeft(kept) ? kept : this.apply(id, right([...settings.right, ...kept.right]));
  }

  regenerateKey(id: string, source: SettingSource): Outcome<SupervisorView> {
    const d = decideRegenerateKey(this.get(id) ?? null, { supervisorId: id, source });
    if (isLeft(d)) return d;
    this.keys.issue(id);
    return this.apply(id, d);
  }

  keepNotes(id: string, text: string, source: SettingSource): Outcome<SupervisorView> {
    return this.apply(id, decideKeepNotes(this.get(id) ?? null, { supervisorId: id, text, source }));
  }

  /** the ledger: a cost counts against the local day of `at` */
  recordCost(id: string, turnId: string | null, cost: SupervisorCost, at: string, usage?: SupervisorTurnUsage): Outcome<SupervisorView> {
    // costs come from turns while people change settings: a moved stream is read and decided again
    const d = this.store.transact(id, (s) => decideRecordCost(s ?? null, { supervisorId: id, day: localDay(new Date(at)), cost, turnId, ...(usage ? { usage } : {}) }), { at, onStale: 'retry' });
    return isLeft(d) ? d : this.view(id);
  }

  /** the owner of a run: handed to, else its project's supervisor, else the global one */
  ownerOf(run: OwnedRun): string | null {
    return ownerOf(run, this.all());
  }

  ownerOfRun(runId: string): string | null {
    const s = this.deps.runs.get(runId);
    return s ? this.ownerOf(s) : null;
  }

  ownerOfNewRun(projectId: string): string | null {
    return ownerOfNewRun(projectId, this.all());
  }

  /** runs it owns, newest first */
  ownedRuns(id: string): RunState[] {
    return [...this.deps.runs.all()].filter((r) => this.ownerOf(r) === id).sort((a, b) => (a.runId < b.runId ? 1 : -1));
  }

  /** its own runs at work: started by it and not ended (start_run is refused at its cap) */
  runsAtWork(id: string): number {
    let n = 0;
    for (const r of this.deps.runs.all()) if (r.startedBySupervisor === id && r.lifecycle !== 'ended') n++;
    return n;
  }

  spentToday(s: SupervisorState): number {
    return spentOn(s, localDay(this.deps.now()));
  }

  heldBecause(id: string): string | null {
    const s = this.get(id);
    if (!s) return `no supervisor ${id}`;
    const now = this.deps.now();
    return decideHeld(s, { featureOn: this.featureOn(), now: now.toISOString(), today: localDay(now) });
  }

  private apply(id: string, d: SupervisorDecision): Outcome<SupervisorView> {
    if (isLeft(d)) return d;
    this.store.transact(id, () => d, { at: this.deps.now().toISOString(), onStale: 'retry' });
    return this.view(id);
  }

  private viewOf(s: SupervisorState): SupervisorView {
    const { settings: o } = s;
    const paused = o.pausedUntil !== null && Date.parse(o.pausedUntil) > this.deps.now().getTime();
    return {
      id: s.id, project: s.project, key: this.keys.get(s.id) ?? '', enabled: o.enabled, pausedUntil: paused ? o.pausedUntil : null,
      actions: o.actions, runCap: o.runCap, dailyLimitUsd: o.dailyLimitUsd, spentTodayUsd: this.spentToday(s), quotaFallbacks: o.quotaFallbacks,
      harness: o.harness, model: o.model, wakeOn: o.wakeOn, notes: s.notes, runsAtWork: this.runsAtWork(s.id), heldBecause: this.heldBecause(s.id),
    };
  }
}
