import { isLeft } from 'fp-ts/lib/Either.js';
import { reuseDecision } from '../../commands/guards.js';
import { decideDeliverMessage } from '../../commands/send-message.js';
import type { RunEventOf } from '../../journal/run-events.js';
import type { RecordedRunEvent } from '../../journal/typed-subscribe.js';
import type { RunState } from '../../projections/run-state.js';
import type { EngineContext } from './context.js';

// The process manager that steers a live turn: it reacts to a recorded MessageSent or GoalRevised
// by handing the words to the run's CLI while its turn runs. A message the CLI took is recorded
// as MessageDelivered; one it could not take (codex, opencode mid-turn) stays held for the step,
// whose session continues with it when the turn ends (agent-step.ts). It runs inside the
// journal's notification of the append, so the command that recorded MessageSent reads the
// outcome as soon as its append returns.

type Sent = RunEventOf<'MessageSent'>['data'];

export const steer = (ctx: EngineContext, s: RunState, e: RecordedRunEvent): void => {
  if (e.type === 'MessageSent') return deliver(ctx, s, e.data);
  if (e.type === 'GoalRevised') ctx.live.forRun(s.runId, s.step?.stepId)?.send(`The goal of this run was revised. The new goal is:\n${e.data.goal}`);
};

// The decide is asked first (it is pure), so a message is never sent into a turn and then refused.
const deliver = (ctx: EngineContext, s: RunState, m: Sent): void => {
  const now = ctx.deps.runs.get(s.runId) ?? s;
  const stepId = now.held.find((h) => h.id === m.messageId)?.forStep;
  const live = stepId ? ctx.live.forRun(s.runId, now.step?.stepId) : undefined;
  if (!stepId || !live) return;
  const delivery = (r: RunState) => decideDeliverMessage(r, { messageId: m.messageId, stepId });
  const probe = delivery(now);
  if (isLeft(probe) || probe.right.length === 0 || !live.send(m.text)) return;
  ctx.apply(s.runId, reuseDecision(now, probe, delivery));
};
