import type { RecordedEvent, TriggerRule } from '../../projections/trigger-rule.js';
import { standingOf } from '../../projections/standing.js';
import type { RunState } from '../../projections/run-state.js';
import type { SourceStatus } from './sources/source.js';
import { DELIVERY_HEADER, SECRET_HEADER } from './sources/webhook.js';

// What the routes answer: a rule with its source's status and notes, and its recent events with
// what each started, or why not. The webhook secret itself is never shown (only at creation).

export const ruleView = (rule: TriggerRule, status: SourceStatus) => {
  const d = rule.definition;
  const last = rule.events[rule.events.length - 1];
  return {
    id: rule.id, name: d.name, project: d.project, workflow: d.workflow, enabled: d.enabled, source: d.source,
    goal: d.goal, ...(d.title !== undefined ? { title: d.title } : {}), inputs: d.inputs,
    ...(d.harness ? { harness: d.harness } : {}), ...(d.model ? { model: d.model } : {}),
    createdAt: rule.createdAt,
    status: d.enabled ? status : { _tag: 'Off' as const },
    notes: rule.notes,
    ...(last ? { lastEvent: { id: last.eventId, kind: last.kind, summary: last.summary, at: last.at } } : {}),
    ...(d.source._tag === 'Webhook' ? { webhook: { path: `/api/triggers/${encodeURIComponent(rule.id)}/events`, secretHeader: SECRET_HEADER, deliveryHeader: DELIVERY_HEADER } } : {}),
  };
};

export type RuleView = ReturnType<typeof ruleView>;

const outcomeOf = (e: RecordedEvent, run: RunState | undefined) => {
  switch (e.outcome._tag) {
    case 'Refused': return { _tag: 'Refused' as const, reason: e.outcome.reason };
    case 'Lost': return { _tag: 'Lost' as const, reason: e.outcome.reason };
    case 'Recorded':
      return run
        ? { _tag: 'Started' as const, runId: e.runId, standing: standingOf(run) }
        : { _tag: 'Starting' as const, runId: e.runId };
  }
};

/** newest first */
export const eventViews = (rule: TriggerRule, run: (runId: string) => RunState | undefined, limit: number) =>
  rule.events.slice(-limit).reverse().map((e) => ({
    id: e.eventId, kind: e.kind, summary: e.summary, ...(e.url ? { url: e.url } : {}), at: e.at, outcome: outcomeOf(e, run(e.runId)),
  }));
