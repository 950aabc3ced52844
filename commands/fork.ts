import { left, right } from 'fp-ts/lib/Either.js';
import type { ForkedFrom, RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { HarnessName } from '../domain/workflow.js';
import { findNode } from '../domain/workflow.js';
import type { CommandContext } from './context.js';
import { titleFrom } from './create-run.js';
import type { Decision } from './guards.js';
import { conflict, invalid } from './refusal.js';

// A fork is a new run made from a step end of another: its journal is RunCreated (with forkedFrom)
// and RunQueued, written in one append, so a fork is whole or absent. It stands where the source
// stood after that step (the next node, the previous step's outcome), on the source's goal unless
// given a new one; the engine makes its worktrees from the snapshots (lib/engine/engine.ts).

export interface Fork extends CommandContext {
  readonly newRunId: string;
  /** the seq of a StepSucceeded or StepFailed of the source */
  readonly atSeq: number;
  /** the source as it stood right after that event (its journal folded up to it) */
  readonly then: RunDecideState;
  readonly goal?: string;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly note?: string;
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** What a CLI that cannot fork the session is told of the source's thread up to the step end. */
export const forkThread = (then: RunDecideState): string => {
  const last = then.previous ? `\nIts step ${then.previous.node} ended with ${then.previous.outcome}: ${clip(then.previous.summary, 2000)}` : '';
  return `Run ${then.runId} worked on the goal:\n${clip(then.goal, 4000)}${last}\nThis worktree is as that step left it (its uncommitted changes included).`;
};

const refusal = (s: RunDecideState, c: Fork): string | null => {
  const end = s.stepEnds?.find((e) => e.at === c.atSeq);
  const ends = (s.stepEnds ?? []).map((e) => `${e.at} (${e.node})`).join(', ') || 'none yet';
  if (s.archived) return `run ${s.runId} is archived: its snapshots are gone, so it cannot be forked`;
  if (!end) return `at ${c.atSeq} is not a step end of run ${s.runId}; its step ends (seq, step) are: ${ends}`;
  const folders = (s.checkouts ?? s.continues?.checkouts ?? []).map((k) => k.folder);
  const missing = folders.find((f) => !end.snapshots.some((k) => k.folder === f));
  if (folders.length === 0 || missing !== undefined) return `there is no snapshot of ${missing === undefined ? 'the worktree' : `folder ${missing}`} at step ${end.node} (seq ${c.atSeq}), so a fork cannot start there`;
  const next = c.then.node ? findNode(c.then.workflow, c.then.node) : undefined;
  if (!next || next.kind === 'exit') return `step ${end.node} ended with ${end.outcome} and the workflow goes nowhere from there: a fork would have nothing to run`;
  return null;
};

const forkedFrom = (s: RunDecideState, c: Fork): ForkedFrom => {
  const end = s.stepEnds!.find((e) => e.at === c.atSeq)!;
  const bases = new Map((s.checkouts ?? s.continues?.checkouts ?? []).map((k) => [k.folder, k.base]));
  const session = c.then.lastSession;
  // the CLI reports a resumed session's running totals, the copied turns included: the fork's
  // first turn counts only its own usage against what the source's session had reported then
  const totals = session ? c.then.usage?.sessions[session.sessionId] : undefined;
  return {
    run: s.runId, at: c.atSeq, step: end.node, node: c.then.node!, thread: forkThread(c.then), previous: c.then.previous!,
    snapshots: end.snapshots.map((k) => ({ folder: k.folder, commit: k.commit, base: bases.get(k.folder) ?? k.commit })),
    ...(session ? { session: { ...session, ...(totals ? { totals } : {}) } } : {}), ...(c.note !== undefined ? { note: c.note } : {}),
  };
};

/** `s`: the source now. Decides the new run's first events (its stream is empty: a repeat is the caller's Stale). */
export const decideFork = (s: RunDecideState, c: Fork): Decision => {
  const refused = refusal(s, c);
  if (refused) return left(conflict(refused));
  if (c.goal !== undefined && c.goal.trim() === '') return left(invalid('goal must not be blank'));
  const then = c.then;
  const sameHarness = c.harness === undefined || c.harness === (then.harnessOverride ?? then.harness);
  const harness = c.harness ?? then.harnessOverride ?? then.harness;
  const model = c.model ?? (sameHarness && !then.harnessOverride ? then.model : undefined);
  const created: RunEvent = {
    type: 'RunCreated',
    data: {
      runId: c.newRunId, projectId: s.projectId, title: c.goal ? titleFrom(c.goal) : s.title, goal: c.goal ?? then.goal,
      workflow: s.workflow, inputs: { ...then.inputs }, by: c.by, forkedFrom: forkedFrom(s, c),
      ...(harness ? { harness } : {}), ...(model ? { model } : {}), ...(c.reason ? { reason: c.reason } : {}),
    },
  };
  return right([created, { type: 'RunQueued', data: { by: c.by } }]);
};
