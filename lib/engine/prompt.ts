import type { RunState } from '../../projections/run-state.js';
import type { StepNode } from '../../domain/workflow.js';
import { untrusted, UNTRUSTED_RULE } from '../untrusted.js';
import type { EngineDeps } from './deps.js';

// The words a turn starts with. Messages people held for the run open the next turn; an
// interrupted turn that can be resumed is told so instead of being given the whole prompt again.
// The goal, the inputs and the workflow's prompt are the instructions of the people who started
// the run and wrote the workflow, and messages are how people (or a supervisor on their behalf)
// steer it: those are given as instructions. What an agent or the service said of an earlier step
// (its summary, why it was interrupted) is fenced as data (lib/untrusted.ts).

const heldSection = (s: RunState): string =>
  s.held.length === 0 ? '' : `\n\nMessages for you from the people steering this run:\n${s.held.map((m) => `- ${m.text}`).join('\n')}`;

// A placeholder may sit mid-line: the block gets lines of its own, so its fences stand alone.
const inline = (block: string): string => `\n${block}\n`;

// A follow-up's fresh session is told what the run it continues did: fenced, as the summary is the agent's.
const earlierRun = (thread: string | undefined): string =>
  thread === undefined ? '' : `${untrusted('What the earlier run on this branch and worktree did', thread)}\n\nThe people steering it now ask:\n`;

export const turnPrompt = (deps: EngineDeps, s: RunState, node: StepNode, resuming: boolean, thread?: string): string => {
  if (resuming) {
    const why = s.previous?.outcome === 'interrupted' ? `\n${untrusted('Why it was interrupted', s.previous.summary)}` : '';
    return `Your previous turn on this step was interrupted.${why}\nContinue the step from where you were. The goal is:\n${s.goal}${heldSection(s)}`;
  }
  const previous = s.previous ? { node: s.previous.node, outcome: s.previous.outcome, summary: inline(untrusted(`The summary of step ${s.previous.node}`, s.previous.summary)) } : undefined;
  const previewUrl = deps.preview?.url(s.runId);
  const body = deps.renderPrompt(node.prompt ?? '{{goal}}', { goal: s.goal, inputs: s.inputs, ...(previous ? { previous } : {}), ...(previewUrl ? { preview: { url: previewUrl } } : {}) });
  return earlierRun(thread) + body + heldSection(s);
};

/** The next turn of a step's session: the messages its CLI could not take while the turn ran. */
export const continuationPrompt = (messages: readonly { readonly text: string }[]): string =>
  `Messages for you from the people steering this run, sent while you were working on this step:\n${messages.map((m) => `- ${m.text}`).join('\n')}\n\nTake them into account, then finish the step (report its outcome again if it changes).`;

export const RUN_TOOLS_GUIDE = [
  'You are one step of a run managed by svc. The svc tool server gives you two tools:',
  '- report_outcome(outcome: "success" | "failure", summary): call it once when the step is done, with a one-paragraph summary.',
  '- ask_question(prompt, options?, allowText?): ask the people steering the run when you cannot go on without a decision; it returns their answer.',
  UNTRUSTED_RULE,
].join('\n');
