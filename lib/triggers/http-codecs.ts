import * as t from 'io-ts';
import { oneOf } from '../../journal/codec-util.js';
import { NonBlank } from '../inputs/codecs.js';
import { HARNESSES } from '../../domain/workflow.js';
import { closed } from '../../domain/closed.js';

// Bodies of the trigger routes, decoded at the HTTP door. Sources are strict: a misspelt field of
// a source is refused rather than ignored.

const StringRecord = t.record(t.string, t.string);

export const SourceBody = closed(t.union([
  t.strict({ _tag: t.literal('Schedule'), cron: NonBlank, timeZone: NonBlank }),
  t.exact(t.intersection([t.type({ _tag: t.literal('CodeHost'), repository: NonBlank }), t.partial({ label: NonBlank, command: NonBlank })])),
  t.strict({ _tag: t.literal('Webhook') }),
  t.exact(t.intersection([t.type({ _tag: t.literal('Files'), folder: NonBlank, glob: NonBlank }), t.partial({ debounceMs: t.number })])),
]));

const optionalFields = {
  workflow: NonBlank, enabled: t.boolean, title: NonBlank, inputs: StringRecord, harness: oneOf(HARNESSES), model: NonBlank,
};

export const RULE_FIELDS = ['name', 'project', 'workflow', 'enabled', 'source', 'goal', 'title', 'inputs', 'harness', 'model'] as const;
export const NewRuleBody = t.intersection([t.type({ name: NonBlank, project: NonBlank, source: SourceBody, goal: NonBlank }), t.partial(optionalFields)]);

export const PATCH_FIELDS = [...RULE_FIELDS, 'newSecret'] as const;
export const RulePatchBody = t.partial({ name: NonBlank, project: NonBlank, source: SourceBody, goal: NonBlank, ...optionalFields, newSecret: t.boolean });

export const EVENT_FIELDS = ['summary', 'url', 'fields'] as const;
export const EventBody = t.partial({ summary: NonBlank, url: t.string, fields: StringRecord });
