import type { CycleResult, RunEvent } from '../journal/run-events.js';
import { causeLabel } from './pr-watch.js';

// What the run's thread says of the pull request loop, one line per event.

type LoopEvent = Extract<RunEvent, { type: 'PullRequestWatchStarted' | 'PullRequestCycleStarted' | 'PullRequestCycleEnded' | 'PullRequestThreadsAnswered' | 'PullRequestLoopLimitReached' }>;

const resultText = (r: CycleResult): string => {
  switch (r._tag) {
    case 'Pushed': return `pushed ${r.headCommit.slice(0, 7)}: ${r.summary}`;
    case 'NoChange': return `nothing to push: ${r.summary}`;
    case 'Failed': return `failed: ${r.reason}`;
    case 'Interrupted': return `interrupted: ${r.reason}`;
  }
};

export const cycleRow = (e: LoopEvent): string => {
  switch (e.type) {
    case 'PullRequestWatchStarted': return `watching pull request #${e.data.pullRequest.number} until it is merged (at most ${e.data.cycles} cycle${e.data.cycles === 1 ? '' : 's'})`;
    case 'PullRequestCycleStarted': return `cycle ${e.data.cycle} of ${e.data.of}: ${causeLabel(e.data.cause)}`;
    case 'PullRequestCycleEnded': return `cycle ${e.data.cycle} ended, ${resultText(e.data.result)}`;
    case 'PullRequestThreadsAnswered': return `replied on ${e.data.replied.length} review thread(s)${e.data.resolved.length ? `, resolved ${e.data.resolved.length}` : ''}`;
    case 'PullRequestLoopLimitReached': return `stopped: ${e.data.reason}`;
  }
};
