import { defineTool, type Tool } from '../tool.js';
import { runNotes } from '../args/common.js';
import { ControlRunArgs, OpenPullRequestArgs, ReviseGoalArgs, SecureRunWorkArgs } from '../args/acting.js';

// The rules across control_run's arguments (harness only with ChangeHarness...) are the decoder's:
// lib/inputs/control.ts, shared with POST /api/runs/{id}/control.
export const controlRun: Tool = defineTool({
  name: 'control_run',
  group: 'controlling',
  description:
    'Act on a run: Pause, Resume, Retry, ChangeHarness, Jump, SkipWait, Restart, Abort or MoveToFront. Echo the position get_run gave; outcome Stale means the run moved on and nothing was applied.',
  args: ControlRunArgs,
  notes: {
    ...runNotes,
    position: 'The position get_run returned.',
    action: 'One of the actions get_run lists in allowedActions.',
    harness: 'With ChangeHarness: the harness to retry the current step on.',
    model: 'Not supported: a call that gives model is refused.',
    node: 'With Jump: id of the step to jump to.',
    budgetUsd: 'With Resume: a raised budget in US dollars, for a run its budget paused.',
  },
  call: (a, { api, actor }) => {
    const { run, ...input } = a;
    return api.control(run, input, actor);
  },
});

export const reviseGoal: Tool = defineTool({
  name: 'revise_goal',
  group: 'controlling',
  description: "Replace a run's whole goal. Later steps read the new goal; a turn in flight is told. A run that has ended is refused.",
  args: ReviseGoalArgs,
  notes: { ...runNotes, goal: 'The new goal, replacing the old one.' },
  call: (a, { api, actor }) => api.reviseGoal(a.run, a.goal, a.reason, actor),
});

export const secureRunWork: Tool = defineTool({
  name: 'secure_run_work',
  group: 'controlling',
  description:
    "Commit every uncommitted change of a run on its own branch and push that branch to origin (never forced; to a backup branch when origin has commits the checkout lacks).",
  args: SecureRunWorkArgs,
  notes: runNotes,
  call: (a, { api, actor }) => api.secureRunWork(a.run, a.reason, actor),
});

// The same decoder and call as POST /api/runs/{id}/pull-request (docs/shipping.md).
export const openPullRequest: Tool = defineTool({
  name: 'open_pull_request',
  group: 'controlling',
  description:
    "Push a run's branch to origin (never forced; uncommitted work is committed first) and open a pull request from it on the code host. Title and body default to the run's goal, the agent's summary and its steps.",
  args: OpenPullRequestArgs,
  notes: {
    run: runNotes.run,
    draft: 'Open it as a draft (default false).',
    base: "Branch to merge into (default: the branch the run started from).",
    title: "The pull request's title (default: the run's title).",
    body: "The pull request's body (default: drawn from the run, its text quoted).",
  },
  call: (a, { api, actor }) => {
    const { run, ...input } = a;
    return api.openPullRequest(run, input, actor);
  },
});
