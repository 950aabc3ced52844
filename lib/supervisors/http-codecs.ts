import * as t from 'io-ts';
import { oneOf } from '../../journal/codec-util.js';
import { NonBlank } from '../inputs/codecs.js';
import { HARNESSES } from '../../domain/workflow.js';
import { RUN_WAKE_KINDS } from '../../domain/supervisor.js';
import { ACTION_SETTINGS, TIERS } from '../../domain/supervisor.js';
import { quoted } from '../../domain/quoted.js';

// Bodies of the supervisor routes, decoded at the HTTP door. Ranges (runCap, dailyLimitUsd) are
// the decide's to check, so every door refuses the same values with the same words.

/** an object of optional fields that refuses a key it does not know (a misspelt action is an error) */
const closedPartial = <P extends t.Props>(props: P, name: string) => {
  const inner = t.partial(props);
  return new t.Type<t.TypeOf<typeof inner>, t.TypeOf<typeof inner>, unknown>(
    name,
    inner.is,
    (u, c) => {
      if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, `must be an object with some of ${Object.keys(props).join(', ')}`);
      const extra = Object.keys(u).filter((k) => !Object.prototype.hasOwnProperty.call(props, k));
      if (extra.length) return t.failure(u, c, `unknown key ${extra.slice(0, 5).map((k) => JSON.stringify(quoted(k))).join(', ')}; known: ${Object.keys(props).join(', ')}`);
      return inner.validate(u, c);
    },
    t.identity,
  );
};

const each = <K extends string, C extends t.Mixed>(keys: readonly K[], codec: C) => Object.fromEntries(keys.map((k) => [k, codec])) as Record<K, C>;

const Harness = oneOf(HARNESSES);

export const NEW_SUPERVISOR_FIELDS = ['project'] as const;
/** project: a project id or name; null makes the global supervisor (made anyway when the feature is switched on) */
export const NewSupervisorBody = t.type({ project: t.union([NonBlank, t.null]) });

export const SUPERVISOR_PATCH_FIELDS = ['enabled', 'paused', 'actions', 'runCap', 'dailyLimitUsd', 'quotaFallbacks', 'harness', 'model', 'wakeOn', 'notes'] as const;
export const SupervisorPatchBody = t.partial({
  enabled: t.boolean,
  paused: t.boolean,
  actions: closedPartial(each(ACTION_SETTINGS, oneOf(TIERS)), 'actions'),
  runCap: t.number,
  dailyLimitUsd: t.number,
  quotaFallbacks: t.array(Harness),
  harness: t.union([Harness, t.null]),
  model: t.union([t.string, t.null]),
  wakeOn: closedPartial(each(RUN_WAKE_KINDS, t.boolean), 'wakeOn'),
  /** a person may edit the notes too (length is the decide's to check) */
  notes: t.string,
});

export const DECISION_FIELDS = ['decision', 'note'] as const;
export const DecisionBody = t.intersection([t.type({ decision: oneOf(['Approve', 'Deny'] as const) }), t.partial({ note: t.string })]);

export const CHAT_FIELDS = ['text'] as const;
/** a person's message in a supervisor's chat (its length is the service's to check) */
export const ChatBody = t.type({ text: NonBlank });
