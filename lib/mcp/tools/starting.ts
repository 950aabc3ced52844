import { map } from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { defineTool, type Tool } from '../tool.js';
import { FollowUpRunArgs, ForkRunArgs, StartRunArgs } from '../../inputs/acting-args.js';
import { runNotes } from '../args/common.js';

export const startRun: Tool = defineTool({
  name: 'start_run',
  group: 'starting',
  description: "Start a run of a workflow in a project. It queues like any run and starts when a slot is free. Answers the run id and the address of the run's page. With attempts, one run per agent, grouped: the answer's run is the first attempt's, and attempts lists each.",
  args: StartRunArgs,
  notes: {
    project: 'Project id.',
    goal: "The run's goal.",
    workflow: "Workflow name (default: the project's default workflow).",
    inputs: 'Inputs of the workflow, as strings.',
    title: 'One line, up to 80 characters (default: generated).',
    harness: "Harness for every step (default: each step's workflow choice).",
    model: 'Model for the harness.',
    attempts: 'Try the goal on several agents at once: 2 to 6 distinct {harness, model?}, one sibling run each, grouped as one (not together with harness or model). All are made or none.',
    reason: 'Why the run is started.',
    budgetUsd: "The run's budget in US dollars: once its known spend reaches it, the run pauses before its next step (default: the workflow's budgetUsd).",
  },
  call: (a, { api, actor }) =>
    pipe(
      api.startRun(a, actor),
      map(({ runId, attempts }) => ({
        run: runId, url: api.runUrl(runId),
        ...(attempts ? { attempts: attempts.map(({ runId: run, ...agent }) => ({ run, ...agent, url: api.runUrl(run) })) } : {}),
      })),
    ),
});

export const followUpRun: Tool = defineTool({
  name: 'follow_up_run',
  group: 'starting',
  description: "Continue an ended run: a new run on the same branch and worktree that resumes the run's last agent session where its CLI can, with text as the agent's next instruction. It queues like any run. Refused for a run still going (message it instead), an archived run (its worktree is gone), or one whose follow-up is still going. Answers the new run id and its page's address.",
  args: FollowUpRunArgs,
  notes: { ...runNotes, text: "What the agent is to do next; must not be blank.", reason: 'Why the run is followed up.' },
  call: (a, { api, actor }) =>
    pipe(
      api.followUp(a.run, { text: a.text, ...(a.reason !== undefined ? { reason: a.reason } : {}) }, actor),
      map(({ runId }) => ({ run: runId, url: api.runUrl(runId) })),
    ),
});

export const forkRun: Tool = defineTool({
  name: 'fork_run',
  group: 'starting',
  description: "Fork a run from one of its step ends: a new run whose branch and worktrees hold the files exactly as that step left them (uncommitted changes included), starting at the workflow's next step; the agent's session is forked on Claude Code and OpenCode; Codex starts afresh with a summary. The source is not changed. at is the seq of a StepSucceeded or StepFailed event (get_run's forkable lists them). Refused for an archived run, a seq that is no step end, a step end without a snapshot, or one the workflow goes nowhere from. Answers the new run id and its page's address.",
  args: ForkRunArgs,
  notes: {
    ...runNotes,
    at: 'The seq of the step end to fork from (a StepSucceeded or StepFailed event of the run).',
    goal: "The fork's goal (default: the run's goal at that step end).",
    harness: "Harness for the fork (default: the run's).",
    model: 'Model for that harness.',
    note: 'Why this fork: shown with the link between the two runs.',
    reason: 'Why the run is forked.',
  },
  call: (a, { api, actor }) => {
    const { run, ...input } = a;
    return pipe(api.fork(run, input, actor), map(({ runId }) => ({ run: runId, url: api.runUrl(runId) })));
  },
});
