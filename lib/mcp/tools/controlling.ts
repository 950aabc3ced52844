import { defineTool, type Tool } from '../tool.js';
import { runNotes } from '../args/common.js';
import { CheckPullRequestNowArgs, ControlRunArgs, MergeRunArgs, MoveRunArgs, OpenPullRequestArgs, ReviseGoalArgs, SecureRunWorkArgs, UpdateRunFromBaseArgs } from '../../inputs/acting-args.js';

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

// "Move to…" (docs/workers.md): the same decoder and call as POST /api/runs/{id}/move.
export const moveRun: Tool = defineTool({
  name: 'move_run',
  group: 'controlling',
  description:
    "Choose the machine for a run's next agent steps: here (this machine) or a worker's id as list_workers gives it; it wins over the project's Run on. A step in flight stays where it runs; a step waiting for a worker that is not online is taken back and goes to the new machine. Refused for an ended run and for a worker this server does not know or has revoked; a move to where the run already goes changes nothing.",
  args: MoveRunArgs,
  notes: { run: runNotes.run, to: 'here, or the id of a worker (list_workers) that is not revoked.', reason: 'Why; the run records who moved it, not why.' },
  call: (a, { api, actor }) => api.moveRun(a.run, a.to, actor),
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

// Shipping records who acted on the run (its events' `by`), not why: a reason is kept only in a
// supervisor's chat, with the action it took.
const shipNotes = { run: runNotes.run, reason: "Why; a supervisor's reason is kept in its chat (the run records who acted, not why)." };

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
    body: "The pull request's body (default: drawn from the run, its text quoted). read_pull_request_draft shows the defaults.",
    reason: shipNotes.reason,
  },
  call: (a, { api, actor }) => {
    const { run, ...input } = a;
    return api.openPullRequest(run, input, actor);
  },
});

// The same decoder and call as POST /api/runs/{id}/merge: the refusals (a dirty checkout, one on
// another branch, not a fast-forward, conflicts) are the service's, each a tool error saying which.
export const mergeRun: Tool = defineTool({
  name: 'merge_run',
  group: 'controlling',
  description:
    "Merge a run's branch into the base branch of the project's own checkout (no code host needed): only when that checkout is clean and on the base branch, and the run's worktree holds no uncommitted work; never forced. A refusal says what stands in the way and nothing is merged.",
  args: MergeRunArgs,
  notes: {
    ...shipNotes,
    method: 'fast-forward (only when the base has not moved on), merge (a merge commit) or squash (one commit titled as the run).',
  },
  call: (a, { api, actor }) => api.mergeRun(a.run, a.method, actor),
});

// The same decoder and call as POST /api/runs/{id}/update-from-base.
export const updateRunFromBase: Tool = defineTool({
  name: 'update_run_from_base',
  group: 'controlling',
  description:
    "Bring the base branch's new commits into a run's branch, in its worktree (merge or rebase). On conflicts git is aborted and the worktree left as it was; with onConflict agent the conflict goes to the run's agent as a turn (a follow-up run when the run has ended). Refused while an agent turn works in the worktree.",
  args: UpdateRunFromBaseArgs,
  notes: {
    ...shipNotes,
    mode: 'merge (a merge commit on the run\'s branch) or rebase (the run\'s commits replayed on the base).',
    onConflict: "agent (hand the conflicting files to the run's agent) or leave (record them, for a person; the default).",
  },
  call: (a, { api, actor }) => {
    const { run, ...input } = a;
    return api.updateFromBase(run, input, actor);
  },
});

// The same call as POST /api/runs/{id}/pull-request/check ("Check now" in the PR panel).
export const checkPullRequestNow: Tool = defineTool({
  name: 'check_pull_request_now',
  group: 'controlling',
  description:
    "Have the pull request loop read a run's pull request now rather than at its next poll: only for a run whose deliver step watches its pull request. Answers once the read is decided; cycleRunning says whether a fixing cycle (a turn for a failing check, review threads or a conflict) is under way.",
  args: CheckPullRequestNowArgs,
  notes: shipNotes,
  call: (a, { api }) => api.checkPullRequestNow(a.run),
});
