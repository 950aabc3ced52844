import type { ThreadRow } from '../../../projections/thread.js';
import type { ActivityRow } from '../../state/activity-log.js';

// The Thread's order: thread rows (from the journal) and activity rows (from the log store) by
// time, a step's rows and tool calls gathered under that step. Something said during a step by
// someone else (a person's message) stands between two parts of the step, as it happened.

export type Item = { readonly thread: ThreadRow } | { readonly activity: ActivityRow };

export interface StepInfo {
  readonly stepId: string;
  readonly node?: string;
  readonly harness?: string;
  readonly model?: string;
  readonly startedAt?: string;
  /** the node's kind (agent, gate, wait, …) */
  readonly kind?: string;
  /** the step's end row: when and how it ended */
  readonly end?: ThreadRow;
}

export type Block =
  | { readonly kind: 'row'; readonly row: ThreadRow }
  | { readonly kind: 'step'; readonly step: StepInfo; readonly items: readonly Item[]; readonly continued: boolean };

const atOf = (i: Item): string => ('thread' in i ? i.thread.at : i.activity.startedAt);
const stepOf = (i: Item): string | undefined => ('thread' in i ? i.thread.stepId : i.activity.stepId);

/** What the thread says of each step: its start (node, CLI, model, time) and its end. */
export const stepsOf = (rows: readonly ThreadRow[]): Map<string, StepInfo> => {
  const steps = new Map<string, StepInfo>();
  for (const r of rows) {
    if (r.kind !== 'step' || !r.stepId) continue;
    const s = steps.get(r.stepId) ?? { stepId: r.stepId };
    const started = / started$/.test(r.text) && !s.startedAt;
    steps.set(r.stepId, started
      ? { ...s, node: r.node, harness: r.harness, model: r.model, startedAt: r.at, ...(r.stepKind ? { kind: r.stepKind } : {}) }
      : { ...s, node: s.node ?? r.node, end: r });
  }
  return steps;
};

const ordered = (thread: readonly ThreadRow[], activity: readonly ActivityRow[]): Item[] => {
  const items: Item[] = [...thread.map((t) => ({ thread: t })), ...activity.map((a) => ({ activity: a }))];
  // stable: equal times keep journal rows before tool calls, each in its own order
  return items.sort((a, b) => (atOf(a) < atOf(b) ? -1 : atOf(a) > atOf(b) ? 1 : 0));
};

// `steps` from all rows held: a step's start may be before what is shown
export const timeline = (thread: readonly ThreadRow[], activity: readonly ActivityRow[], steps = stepsOf(thread)): Block[] => {
  const blocks: Block[] = [];
  const seen = new Set<string>();
  let current: string | undefined;
  let items: Item[] = [];
  for (const item of ordered(thread, activity)) {
    const stepId = stepOf(item);
    if (!stepId) {
      current = undefined;
      blocks.push({ kind: 'row', row: (item as { thread: ThreadRow }).thread });
      continue;
    }
    if (current !== stepId) {
      current = stepId;
      items = [];
      blocks.push({ kind: 'step', step: steps.get(stepId) ?? { stepId }, items, continued: seen.has(stepId) });
      seen.add(stepId);
    }
    items.push(item);
  }
  return blocks;
};

/**
 * Where the held pages of the two feeds start together. The thread and the tool calls are paged
 * apart (50 rows, 100 calls): on a long run the thread's page reaches back far beyond the calls'
 * page, and its older messages would stand there without their calls. Shown is only what both
 * pages cover, cut at a message so the first message shown has all its calls; "Show earlier"
 * moves the cut back. Undefined: everything held is shown.
 */
export const shownFrom = (thread: readonly ThreadRow[], activity: readonly ActivityRow[], threadMore: boolean, activityMore: boolean): string | undefined => {
  const fromThread = threadMore ? thread[0]?.at : undefined;
  const oldestCall = activityMore ? activity[0]?.startedAt : undefined;
  // the calls before the first message after the oldest held call belong to a message not shown
  const fromCalls = oldestCall === undefined ? undefined : thread.find((r) => r.at >= oldestCall && r.kind !== 'step')?.at ?? oldestCall;
  if (fromThread === undefined) return fromCalls;
  return fromCalls === undefined || fromThread > fromCalls ? fromThread : fromCalls;
};

/** the rows and calls at or after `from` (see shownFrom) */
export const heldFrom = (from: string | undefined, thread: readonly ThreadRow[], activity: readonly ActivityRow[]): { thread: readonly ThreadRow[]; activity: readonly ActivityRow[] } =>
  from === undefined ? { thread, activity } : { thread: thread.filter((r) => r.at >= from), activity: activity.filter((a) => a.startedAt >= from) };

/** "1m 05s" between two times; "" when either is missing. */
export const duration = (from: string | undefined, to: string | undefined): string => {
  if (!from || !to) return '';
  const s = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
};
