import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideArchive } from '../../commands/archive.js';
import { keepingOf } from './keeping.js';
import { decideAnswerQuestion } from '../../commands/answer-question.js';
import type { CommandContext } from '../../commands/context.js';
import { decideControl, withAllowed } from '../../commands/control.js';
import type { ControlCommand } from '../../commands/control-input.js';
import type { Decision } from '../../commands/guards.js';
import { conflict, invalid, notFound, type Outcome, type Refusal } from '../../commands/refusal.js';
import { decideResolve } from '../../commands/resolve.js';
import { decideReviseGoal } from '../../commands/revise-goal.js';
import { decideSendMessage } from '../../commands/send-message.js';
import type { HeldMessage } from '../../projections/run-decide-state.js';
import type { RunState } from '../../projections/run-state.js';
import { parsePosition } from '../read-models/run-views.js';
import type { Actor, ControlInput, StartedAttempt, StartedBy, StartRunInput } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { appendPrepared, prepareRun, type PreparedRun } from './prepare-run.js';
import { parts, transactTogether } from '../state/together.js';
import { startAttempts } from './attempts.js';
import { availabilityText, type ServiceCore } from './core.js';
import { detailOf } from '../read-models/run-detail.js';
import { quoted } from '../../domain/quoted.js';
import { liveInChain } from './follow-ups.js';

const ctxOf = (core: ServiceCore, by: Actor, reason?: string): CommandContext => ({ at: core.now().toISOString(), by, ...(reason !== undefined ? { reason } : {}) });

const runOf = (core: ServiceCore, runId: string): Outcome<RunState> => {
  const s = core.runs.get(runId);
  return s ? right(s) : left(notFound('run', runId));
};

/** Decide against the run as it is now and append; refusals come back as they are. These commands
 * name no position: on a run that moved they are decided again, on what it is now. */
const act = (core: ServiceCore, runId: string, decide: (s: RunState) => Decision): Outcome<RunState> => {
  const r = core.runs.transact(runId, (s) => (s ? decide(s) : left(notFound('run', runId))), { at: core.now().toISOString(), onStale: 'retry' });
  return isLeft(r) ? r : right(r.right.state!);
};

/** `trigger`: a rule fires with the run id it recorded beforehand, and names itself as startedBy */
export const startRun = (core: ServiceCore, input: StartRunInput, by: Actor, restartOf?: string, trigger?: { runId: string; startedBy: StartedBy }): Outcome<{ runId: string; attempts?: readonly StartedAttempt[] }> => {
  if (input.attempts !== undefined) return startAttempts(core, input, by);
  const runId = trigger?.runId ?? core.newId('r');
  const p = prepareRun(core, input, by, runId, { ...(restartOf ? { restartOf } : {}), ...(trigger ? { startedBy: trigger.startedBy } : {}) });
  if (isLeft(p)) return p;
  appendPrepared(core, p.right);
  return right({ runId });
};

const controlCommand = (core: ServiceCore, input: ControlInput, c: CommandContext): Outcome<ControlCommand> => {
  if (input.model !== undefined) return left(invalid("changing a run's model is unsupported; control_run does not take model"));
  switch (input.action) {
    case 'ChangeHarness':
      if (!input.harness) return left(invalid('ChangeHarness needs harness: claude, codex or opencode'));
      return right({ ...c, action: 'ChangeHarness', harness: input.harness, available: availabilityText(core.availability.get(input.harness)) });
    case 'Jump':
      if (!input.node) return left(invalid('Jump needs node: the id of the step to jump to'));
      return right({ ...c, action: 'Jump', node: input.node });
    case 'Restart': return right({ ...c, action: 'Restart', newRunId: '' });
    case 'Resume': return right({ ...c, action: 'Resume', ...(input.budgetUsd !== undefined ? { budgetUsd: input.budgetUsd } : {}) });
    default: return right({ ...c, action: input.action });
  }
};

// Restart: the new run is decided first (a refusal makes nothing), then made in the same journal
// transaction as RunRestarted on the old run: both or neither, across a crash too, and a run that
// moved since the caller looked makes no new run either.
const prepareRestart = (core: ServiceCore, s: RunState, by: Actor, newRunId: string): Outcome<PreparedRun> => {
  const project = core.projects.current.get(s.projectId);
  if (!project) return left(notFound('project', s.projectId));
  const input: StartRunInput = { project: s.projectId, goal: s.goal, workflow: s.workflow.name, inputs: s.inputs, title: s.title, ...(s.harness ? { harness: s.harness } : {}), ...(s.model ? { model: s.model } : {}), ...(s.budgetUsd !== undefined ? { budgetUsd: s.budgetUsd } : {}) };
  return prepareRun(core, input, by, newRunId, { restartOf: s.runId });
};

export const control = (core: ServiceCore, runId: string, input: ControlInput, by: Actor): Outcome<{ outcome: 'Applied' | 'Stale'; run: RunDetail }> => {
  const found = runOf(core, runId);
  if (isLeft(found)) return found;
  const s = found.right;
  const position = parsePosition(input.position);
  if (position === null) return left(invalid(`position ${JSON.stringify(quoted(input.position))} is not one that get_run returned`));
  if (position !== s.position) return right({ outcome: 'Stale', run: detailOf(core, s) });
  const built = controlCommand(core, input, ctxOf(core, by, input.reason));
  if (isLeft(built)) return built;
  // a Restart names its new run up front, so the one decide below is the one the transaction records
  const cmd: ControlCommand = built.right.action === 'Restart' ? { ...built.right, newRunId: core.newId('r') } : built.right;
  const decided = withAllowed(s, decideControl(s, cmd));
  if (isLeft(decided)) return decided;
  const made = cmd.action === 'Restart' ? prepareRestart(core, s, cmd.by, cmd.newRunId) : right(null);
  if (isLeft(made)) return made;
  const created = made.right;
  if (created) core.probe?.('restart:before-append');
  // decided on the position the caller saw: a run that moved since is Stale, not decided again
  const r = transactTogether<Refusal>(core.journal, () => parts(
    created ? core.runs.plan(created.runId, () => right([...created.events]), 0) : right(null),
    core.runs.plan(runId, () => decided, s.seq),
  ), { at: core.now().toISOString(), onStale: 'refuse' });
  if (isLeft(r)) return r;
  if (created) core.probe?.('restart:after-append');
  return right({ outcome: r.right._tag === 'Stale' ? 'Stale' : 'Applied', run: detailOf(core, core.runs.get(runId) ?? s) });
};

export const reviseGoal = (core: ServiceCore, runId: string, goal: string, reason: string | undefined, by: Actor): Outcome<{ run: RunDetail; goal: string }> => {
  const r = act(core, runId, (s) => decideReviseGoal(s, { ...ctxOf(core, by, reason), goal }));
  return isLeft(r) ? r : right({ run: detailOf(core, r.right), goal: r.right.goal });
};

export const deliveryDetail = (delivered: boolean, s: RunState, delivery: 'Resume' | 'Hold', held: HeldMessage | undefined): string | null => {
  if (delivered) return null;
  if (delivery === 'Hold') return 'held for the run\'s next turn';
  if (held?.forStep) return 'this agent\'s CLI cannot take a message mid-turn; held, and the step\'s session continues with it as soon as the turn ends';
  return s.lifecycle === 'active' && !s.paused ? 'no turn that takes messages is in flight; held for the next turn' : 'the run has no turn in flight; held for its next turn';
};

// The message is recorded; the engine's steering (lib/engine/steering.ts) reacts to MessageSent
// inside this append and hands it to a live turn that takes messages. So once the append returns,
// the run's state says whether it was delivered: no longer held, or the run resumed with it.
export const message = (core: ServiceCore, runId: string, text: string, delivery: 'Resume' | 'Hold', reason: string | undefined, by: Actor) => {
  const found = runOf(core, runId);
  if (isLeft(found)) return found;
  const s = found.right;
  const messageId = core.newId('m');
  const d = decideSendMessage(s, { ...ctxOf(core, by, reason), messageId, text, delivery });
  if (isLeft(d)) return d;
  // the engine's steering reacts to MessageSent inside this append: the state after says what it did
  const r = core.runs.transact(runId, (): Decision => d, { at: core.now().toISOString(), onStale: 'refuse' });
  if (isLeft(r)) return r;
  const after = core.runs.get(runId) ?? s;
  const held = after.held.find((m) => m.id === messageId);
  const delivered = d.right.some((e) => e.type === 'RunResumed') || (!held && !after.views.undelivered?.some((m) => m.id === messageId));
  return right({ run: detailOf(core, after), delivered, detail: deliveryDetail(delivered, s, delivery, held) });
};

export const answer = (core: ServiceCore, runId: string, questionId: string, ans: string | readonly string[], reason: string | undefined, by: Actor) => {
  const before = core.runs.get(runId);
  const waiting = before?.question?.id === questionId && before.step !== null && core.turns.isLive(before.step.stepId);
  const r = act(core, runId, (s) => decideAnswerQuestion(s, { ...ctxOf(core, by, reason), questionId, answer: ans }));
  if (isLeft(r)) return r;
  return right({ run: detailOf(core, r.right), question: questionId, delivered: waiting, detail: waiting ? null : 'recorded; the agent that asked is no longer waiting' });
};

export const archive = async (core: ServiceCore, runId: string, state: 'Archived' | 'Active', reason: string | undefined, by: Actor) => {
  const s = core.runs.get(runId);
  const live = s && state === 'Archived' && s.lifecycle === 'ended' ? liveInChain(core, s) : null;
  // what the archive keeps (or the unarchive restores), read before the engine moves the folders
  const kept = s ? (await keepingOf(s)).text : '';
  const r = act(core, runId, (s) => decideArchive(s, { ...ctxOf(core, by, reason), state, liveInChain: live }));
  return isLeft(r) ? r : right({ run: detailOf(core, r.right), state, kept });
};

export const resolve = (core: ServiceCore, runId: string, reason: string | undefined, by: Actor) => {
  const r = act(core, runId, (s) => decideResolve(s, ctxOf(core, by, reason)));
  return isLeft(r) ? r : right({ run: detailOf(core, r.right) });
};
