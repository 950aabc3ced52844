import type { PullRequestLoopView } from '../domain/runs.js';
import { causeLabel } from './pr-watch.js';
import type { RunState } from './run-state.js';

// The run page's line on the pull request loop, while its deliver step stands on the pull request.

export const loopView = (s: RunState): { pullRequestLoop?: PullRequestLoopView } => {
  const w = s.prWatch;
  if (!w || s.lifecycle !== 'active' || s.step?.stepId !== w.stepId) return {};
  const n = w.pullRequest.number;
  const text = w.open
    ? `cycle ${w.open.cycle} of ${w.cycles}: ${causeLabel(w.open.cause)}`
    : w.limitReached && s.paused ? `stopped: ${w.limitReached}` : `watching pull request #${n}${w.started ? ` (${w.started} of ${w.cycles} cycles used)` : ''}`;
  return { pullRequestLoop: { number: n, url: w.pullRequest.url, cycle: w.started, of: w.cycles, running: !!w.open, text } };
};
