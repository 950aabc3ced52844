import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { TriggerDefinition, TriggerEvent } from '../journal/trigger-events.js';
import type { TriggerRule } from '../projections/trigger-rule.js';
import { conflict, invalid, notFound, type Refusal } from './refusal.js';

// Creating, changing and deleting a rule. What needs I/O (does the project exist, does the
// workflow load, does the cron parse, is the folder there) arrives as `problem`, checked by the caller.

type Decision = Either<Refusal, TriggerEvent[]>;

export interface DefinitionFacts {
  /** the first thing wrong with the definition that only I/O can tell, or null */
  readonly problem: string | null;
}

const NAME = /^[^\r\n]{1,80}$/;

const check = (d: TriggerDefinition, facts: DefinitionFacts): Refusal | null => {
  if (!NAME.test(d.name) || d.name.trim() !== d.name) return invalid('name must be one line of 1 to 80 characters, no surrounding spaces');
  if (d.goal.trim() === '') return invalid('goal must not be blank');
  if (d.model !== undefined && d.harness === undefined) return invalid('model may be given only together with harness');
  return facts.problem === null ? null : invalid(facts.problem);
};

export const decideCreateTrigger = (existing: TriggerRule | null, c: { ruleId: string; definition: TriggerDefinition; secretHash?: string; facts: DefinitionFacts }): Decision => {
  if (existing) return left(conflict(`a trigger rule ${c.ruleId} exists already`));
  const bad = check(c.definition, c.facts);
  if (bad) return left(bad);
  return right([{ type: 'TriggerCreated', data: { ruleId: c.ruleId, definition: c.definition, ...(c.secretHash ? { secretHash: c.secretHash } : {}) } }]);
};

const same = (a: TriggerDefinition, b: TriggerDefinition): boolean => JSON.stringify(a) === JSON.stringify(b);

export const decideChangeTrigger = (rule: TriggerRule | null, c: { ruleId: string; definition: TriggerDefinition; secretHash?: string; facts: DefinitionFacts }): Decision => {
  if (!rule || rule.deleted) return left(notFound('trigger rule', c.ruleId));
  const bad = check(c.definition, c.facts);
  if (bad) return left(bad);
  if (same(rule.definition, c.definition) && !c.secretHash) return right([]);
  return right([{ type: 'TriggerChanged', data: { definition: c.definition, ...(c.secretHash ? { secretHash: c.secretHash } : {}) } }]);
};

export const decideDeleteTrigger = (rule: TriggerRule | null, c: { ruleId: string }): Decision => {
  if (!rule || rule.deleted) return left(notFound('trigger rule', c.ruleId));
  return right([{ type: 'TriggerDeleted', data: {} }]);
};
