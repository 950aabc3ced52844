import type { RunEvent } from '../journal/run-events.js';
import type { Actor, StartedBy } from '../domain/runs.js';
import type { RunDecideState } from './run-decide-state.js';

// What the board and the run page show of a run that no decide reads: when it was made and by
// whom, when it first left the queue and when it last ended, who paused it, and whether its latest
// step ran in the sandbox; and its questions' answers, which nothing reads yet. Folded beside the decide state (projections/run-state.ts).

/** whether the latest step that ran something in the run's folder ran in svc's sandbox, and why not */
export interface SandboxMark {
  readonly stepId: string;
  readonly sandboxed: boolean;
  readonly reason?: string;
}

export interface RunBoardView {
  readonly createdAt: string;
  readonly startedBy?: StartedBy;
  readonly restartOf: string | null;
  /** when the run first left the queue, and when it last ended (cleared when it is reopened) */
  readonly startedAt?: string;
  readonly endedAt?: string;
  /** who paused the run, while it is: svc's own pauses wait for a person (projections/needs-you.ts) */
  readonly pausedBy?: Actor['kind'];
  /** the latest agent or command step's sandbox (absent: none ran yet, or before sandboxes were recorded) */
  readonly sandbox?: SandboxMark;
  /** each question's answer, by question id (the decide state keeps only whether it was answered) */
  readonly answers: Readonly<Record<string, string | readonly string[]>>;
}

export const createdBoard = (e: Extract<RunEvent, { type: 'RunCreated' }>, at: string): RunBoardView => ({
  createdAt: at, answers: {}, ...(e.data.startedBy !== undefined ? { startedBy: e.data.startedBy } : {}), restartOf: e.data.restartOf ?? null,
});

const without = <K extends keyof RunBoardView>(v: RunBoardView, key: K): RunBoardView => {
  const { [key]: _gone, ...rest } = v;
  return rest as RunBoardView;
};

/** `before`: the decide state the event was folded onto; `at`: the event's time */
export const evolveRunBoard = (v: RunBoardView, e: RunEvent, before: RunDecideState, at: string): RunBoardView => {
  switch (e.type) {
    case 'RunStarted': return v.startedAt === undefined ? { ...v, startedAt: at } : v;
    case 'RunAborted': case 'RunSucceeded': case 'RunFailed': return { ...v, endedAt: at };
    // these reopen an ended run (projections/run-decide-state.ts, reopen)
    case 'RunRetried': case 'HarnessChanged': case 'Jumped': return before.lifecycle === 'ended' ? without(v, 'endedAt') : v;
    case 'RunPaused': return { ...v, pausedBy: e.data.by.kind };
    case 'RunResumed': return before.lifecycle === 'created' ? v : without(v, 'pausedBy');
    case 'StepStarted':
      return e.data.sandboxed === undefined ? v : { ...v, sandbox: { stepId: e.data.stepId, sandboxed: e.data.sandboxed, ...(e.data.unsandboxed ? { reason: e.data.unsandboxed } : {}) } };
    case 'QuestionAnswered': return { ...v, answers: { ...v.answers, [e.data.questionId]: e.data.answer } };
    default: return v;
  }
};
