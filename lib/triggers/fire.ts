import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { decideRecordEvent, decideSettleRun } from '../../commands/trigger-fire.js';
import { conflict, refusalText, type Refusal } from '../../commands/refusal.js';
import type { TriggerRule } from '../../projections/trigger-rule.js';
import { titleFrom } from '../../commands/create-run.js';
import type { TriggerPort } from './port.js';
import type { StartedBy, StartRunInput } from '../../domain/runs.js';
import type { IncomingEvent } from './sources/source.js';
import { liveRules, type TriggerStreams } from './store.js';
import { transactTogether } from '../state/together.js';
import { renderInputs, renderTemplate, type Quote } from './template.js';
import { untrusted } from '../untrusted.js';

// A rule fires for an event: the event id and the run id are recorded in the rule's journal, and
// the run is created through the same path as POST /api/runs, in one journal transaction; it
// queues like any other. (An older svc wrote them in two: a run recorded but never created is
// reported as lost on start, and never re-fired.)

export type FireOutcome =
  | { readonly _tag: 'Started'; readonly eventId: string; readonly runId: string }
  | { readonly _tag: 'Duplicate'; readonly eventId: string; readonly runId: string | null }
  | { readonly _tag: 'Refused'; readonly eventId: string; readonly reason: string };

const fieldsOf = (e: IncomingEvent): Record<string, string> => ({ ...e.fields, kind: e.kind, id: e.id, summary: e.summary, url: e.url ?? '' });

// The goal is the agent's prompt: what a code host or a webhook sender wrote (an issue's title, a
// comment, a payload field) goes into it fenced as untrusted data. Times, file paths and a person's
// manual fire are the machine's or the person's own words. Titles are one line and never a prompt;
// inputs also reach command steps' environment, where a fence would change the value.
const OUTSIDE_KINDS: readonly string[] = ['IssueLabeled', 'PullRequestComment', 'Webhook'];
const quoteFor = (e: IncomingEvent): Quote | undefined =>
  OUTSIDE_KINDS.includes(e.kind) ? (field, value) => untrusted(`the event's ${field}`, value) : undefined;

export const runInputFor = (rule: TriggerRule, e: IncomingEvent): StartRunInput => {
  const d = rule.definition;
  const fields = fieldsOf(e);
  const title = d.title === undefined ? undefined : titleFrom(renderTemplate(d.title, fields));
  return {
    project: d.project, goal: renderTemplate(d.goal, fields, quoteFor(e)), workflow: d.workflow, inputs: renderInputs(d.inputs, fields),
    ...(title ? { title } : {}), ...(d.harness ? { harness: d.harness } : {}), ...(d.model ? { model: d.model } : {}),
    reason: `trigger ${d.name}: ${e.summary}`.slice(0, 500),
  };
};

const startedBy = (rule: TriggerRule, e: IncomingEvent): StartedBy => ({
  rule: { id: rule.id, name: rule.definition.name },
  event: { kind: e.kind, id: e.id, summary: e.summary, ...(e.url ? { url: e.url } : {}) },
});

/** Settles with the rule as it is: another writer's events only change what is settled. */
const settle = (store: TriggerStreams, ruleId: string, at: string, c: { eventId: string; refused?: string; lost?: string }): void => {
  store.transact(ruleId, (rule) => decideSettleRun(rule ?? null, { ruleId, ...c }), { at, onStale: 'retry' });
};

export const fireRule = (port: TriggerPort, store: TriggerStreams, now: () => Date, ruleId: string, e: IncomingEvent): Either<Refusal, FireOutcome> => {
  const runId = port.newId('r');
  let refused: Refusal | null = null;
  // the event and its run in ONE transaction: a crash leaves both or neither. A rule moved
  // underneath is read again: the duplicate check is made on what is stored.
  const d = transactTogether<Refusal>(port.journal, () => {
    refused = null;
    const recording = store.plan(ruleId, (rule) => decideRecordEvent(rule ?? null, { ruleId, event: e, runId }));
    if (isLeft(recording) || recording.right === null) return isLeft(recording) ? recording : right([]);
    const rule = store.get(ruleId)!;
    const run = port.prepareRun(runInputFor(rule, e), { kind: 'engine', name: `trigger ${rule.definition.name}` }, { runId, startedBy: startedBy(rule, e) });
    if (isLeft(run)) refused = run.left;
    return right(isLeft(run) ? [recording.right] : [recording.right, run.right]);
  }, { at: now().toISOString(), onStale: 'retry' });
  if (isLeft(d)) return d;
  if (d.right._tag === 'Stale') return left(conflict(`trigger rule ${ruleId} kept changing while this event was recorded; deliver it again`));
  if (d.right._tag === 'Unchanged') return right({ _tag: 'Duplicate', eventId: e.id, runId: store.get(ruleId)?.events.find((x) => x.eventId === e.id)?.runId ?? null });
  if (refused !== null) {
    const reason = refusalText(refused);
    settle(store, ruleId, now().toISOString(), { eventId: e.id, refused: reason });
    return right({ _tag: 'Refused', eventId: e.id, reason });
  }
  return right({ _tag: 'Started', eventId: e.id, runId });
};

const LOST = 'the service stopped after recording this event and before creating its run; it is not fired again (fire the rule by hand if it should run)';

/** On start: events recorded whose run was never created are reported as lost, once. */
export const reportLostRuns = (port: TriggerPort, store: TriggerStreams, now: () => Date): void => {
  for (const rule of liveRules(store)) {
    for (const e of rule.events) {
      if (e.outcome._tag !== 'Recorded' || port.run(e.runId)) continue;
      settle(store, rule.id, now().toISOString(), { eventId: e.eventId, lost: LOST });
    }
  }
};

export const noRule = (ruleId: string) => left<Refusal, never>({ _tag: 'NotFound', what: 'trigger rule', id: ruleId });
