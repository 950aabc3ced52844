import * as t from 'io-ts';
import { HARNESSES } from '../domain/workflow.js';
import { oneOf, withOptional } from './codec-util.js';

// Every event a trigger rule's journal (stream `trigger:<id>`) can hold. A rule's definition is
// replaced whole on each change; each event the rule acts on is recorded (with the run id it is
// about to create) before that run exists, which is what makes firing exactly once.

export const SourceCodec = t.union([
  t.strict({ _tag: t.literal('Schedule'), cron: t.string, timeZone: t.string }),
  withOptional({ _tag: t.literal('CodeHost'), repository: t.string }, { label: t.string, command: t.string }),
  t.strict({ _tag: t.literal('Webhook') }),
  withOptional({ _tag: t.literal('Files'), folder: t.string, glob: t.string }, { debounceMs: t.number }),
]);

export const DefinitionCodec = withOptional(
  { name: t.string, project: t.string, workflow: t.string, enabled: t.boolean, source: SourceCodec, goal: t.string, inputs: t.record(t.string, t.string) },
  { title: t.string, harness: oneOf(HARNESSES), model: t.string },
);

export const EVENT_KINDS = ['Schedule', 'IssueLabeled', 'PullRequestComment', 'Webhook', 'File', 'Manual'] as const;

const EventFacts = withOptional({ eventId: t.string, kind: oneOf(EVENT_KINDS), summary: t.string }, { url: t.string });

export const TRIGGER_EVENT_CODECS = {
  TriggerCreated: withOptional({ ruleId: t.string, definition: DefinitionCodec }, { secretHash: t.string }),
  TriggerChanged: withOptional({ definition: DefinitionCodec }, { secretHash: t.string }),
  TriggerDeleted: t.type({}),
  /** recorded before the run is created: the rule has fired for this event id */
  EventRecorded: t.intersection([EventFacts, t.type({ runId: t.string })]),
  /** the service refused to create the run (its workflow no longer loads, an input is undeclared...) */
  RunRefused: t.type({ eventId: t.string, reason: t.string }),
  /** found on start: recorded, but the service stopped before its run was created; not re-fired */
  RunLost: t.type({ eventId: t.string, reason: t.string }),
  /** schedule firings that fell while the server was down: skipped, and said so */
  FiringsSkipped: t.type({ count: t.number, first: t.string, last: t.string }),
} as const;

type Codecs = typeof TRIGGER_EVENT_CODECS;
export type TriggerEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
export type TriggerSource = t.TypeOf<typeof SourceCodec>;
export type TriggerDefinition = t.TypeOf<typeof DefinitionCodec>;
export type EventKind = (typeof EVENT_KINDS)[number];
