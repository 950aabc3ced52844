import type { CycleCause, CycleResult, RunEvent } from '../journal/run-events.js';

// The pull request loop's part of the run state: which deliver step watches which pull request,
// and every cause it has taken up (started a cycle on, or stopped at the limit for). Causes are
// kept by key, so a cause seen again after a restart is recognised and never starts a second turn.

export interface PullRequestWatch {
  readonly stepId: string;
  readonly pullRequest: { readonly repository: string; readonly number: number; readonly url: string };
  /** the cycle limit the step was written with */
  readonly cycles: number;
  readonly resolveThreads: boolean;
  /** cycles started so far */
  readonly started: number;
  /** keys of every cause taken up (causeKeys) */
  readonly causes: readonly string[];
  /** the cycle in progress: its agent turn and push have not been recorded as ended */
  readonly open?: { readonly cycle: number; readonly cause: CycleCause; readonly answered?: boolean };
  readonly last?: { readonly cycle: number; readonly cause: CycleCause; readonly result: CycleResult };
  /** why the loop stopped at its limit (the run paused there) */
  readonly limitReached?: string;
}

/** what makes a cause the same cause: the failing head commit, each thread, the conflicted head */
export const causeKeys = (c: CycleCause): string[] => {
  switch (c._tag) {
    case 'Checks': return [`checks:${c.headCommit}`];
    case 'Threads': return c.threads.map((t) => `thread:${t.id}`);
    case 'Conflict': return [`conflict:${c.headCommit}`];
  }
};

/** what a cycle is about, for the run page: "fixing `lint`", "answering 2 review threads" */
export const causeLabel = (c: CycleCause): string => {
  switch (c._tag) {
    case 'Checks': return `fixing ${c.failing.map((f) => `\`${f.name}\``).join(', ')}`;
    case 'Threads': return `answering ${c.threads.length} review thread${c.threads.length === 1 ? '' : 's'}`;
    case 'Conflict': return `resolving conflicts with ${c.base}`;
  }
};

type WatchEvent = Extract<RunEvent, { type: 'PullRequestWatchStarted' | 'PullRequestCycleStarted' | 'PullRequestCycleEnded' | 'PullRequestThreadsAnswered' | 'PullRequestLoopLimitReached' }>;

export const evolveWatch = (w: PullRequestWatch | undefined, e: WatchEvent): PullRequestWatch | undefined => {
  if (e.type === 'PullRequestWatchStarted') {
    const { stepId, pullRequest, cycles, resolveThreads } = e.data;
    // the same pull request watched again (after a pause): its cycles and causes still count
    const same = w && w.pullRequest.repository === pullRequest.repository && w.pullRequest.number === pullRequest.number;
    return { stepId, pullRequest, cycles, resolveThreads, started: same ? w.started : 0, causes: same ? w.causes : [] };
  }
  if (!w || w.stepId !== e.data.stepId) return w;
  switch (e.type) {
    case 'PullRequestCycleStarted':
      return { ...w, started: e.data.cycle, causes: [...w.causes, ...causeKeys(e.data.cause)], open: { cycle: e.data.cycle, cause: e.data.cause } };
    case 'PullRequestCycleEnded': {
      if (w.open?.cycle !== e.data.cycle) return w;
      const { open: _open, ...rest } = w;
      return { ...rest, last: { cycle: e.data.cycle, cause: w.open.cause, result: e.data.result } };
    }
    case 'PullRequestThreadsAnswered':
      return w.open?.cycle === e.data.cycle ? { ...w, open: { ...w.open, answered: true } } : w;
    case 'PullRequestLoopLimitReached':
      return { ...w, causes: [...w.causes, ...causeKeys(e.data.cause)], limitReached: e.data.reason };
  }
};
