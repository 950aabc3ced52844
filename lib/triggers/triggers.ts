import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { conflict, notFound, type Outcome } from '../../commands/refusal.js';
import { decideChangeTrigger, decideCreateTrigger, decideDeleteTrigger } from '../../commands/trigger-define.js';
import { decideSkipFirings } from '../../commands/trigger-fire.js';
import type { TriggerDefinition, TriggerEvent } from '../../journal/trigger-events.js';
import { findProject } from '../../projections/projects.js';
import type { TriggerRule } from '../../projections/trigger-rule.js';
import type { Clock } from '../clock.js';
import { definitionProblem } from './definition.js';
import { fireRule, reportLostRuns, type FireOutcome } from './fire.js';
import type { TriggerPort } from './port.js';
import { SourceRunner } from './runner.js';
import type { IncomingEvent } from './sources/source.js';
import { hashSecret, newSecret, secretMatches, webhookEvent, type WebhookBody } from './sources/webhook.js';
import { liveRules, openTriggerStreams, type TriggerStreams } from './store.js';
import { eventViews, ruleView, type RuleView } from './view.js';

// The trigger rules: their definitions (journal streams), the sources watching for each enabled
// rule, and firing. Routes call these; every answer is an Outcome like the service facade's.

export type RuleAnswer = { readonly rule: RuleView; readonly secret?: string };
export type NewRule = Omit<TriggerDefinition, 'workflow' | 'enabled' | 'inputs'> & Partial<Pick<TriggerDefinition, 'workflow' | 'enabled' | 'inputs'>>;
export type PatchInput = Partial<TriggerDefinition> & { readonly newSecret?: boolean };
export type Delivery = { readonly _tag: 'BadSecret' } | { readonly _tag: 'Fired'; readonly outcome: FireOutcome };

const runsDifferently = (a: TriggerDefinition, b: TriggerDefinition): boolean =>
  JSON.stringify([a.project, a.workflow, a.inputs, a.source]) !== JSON.stringify([b.project, b.workflow, b.inputs, b.source]);

export class Triggers {
  readonly store: TriggerStreams;
  private readonly runner: SourceRunner;

  constructor(private readonly port: TriggerPort, readonly clock: Clock) {
    this.store = openTriggerStreams(port.journal);
    this.runner = new SourceRunner({
      clock, settings: () => port.settings(), rule: (id) => this.store.get(id) ?? null,
      emit: (id, e) => this.fire(id, e),
      skipped: (id, missed) => this.commit(id, decideSkipFirings(this.store.get(id) ?? null, { ruleId: id, missed })),
    });
  }

  /** Reports runs lost in a crash, then starts every enabled rule's source. */
  start(): void {
    reportLostRuns(this.port, this.store, () => this.clock.now());
    this.runner.begin(liveRules(this.store));
  }

  stop(): Promise<void> { return this.runner.end(); }

  list(): RuleView[] { return liveRules(this.store).map((r) => this.view(r)); }

  get(id: string): Outcome<RuleView> {
    const r = this.live(id);
    return r ? right(this.view(r)) : left(notFound('trigger rule', id));
  }

  create(input: NewRule): Outcome<RuleAnswer> {
    const id = this.port.newId('t');
    const project = findProject(this.port.projects(), input.project);
    const d = this.normalized({ ...input, workflow: input.workflow ?? project?.defaultWorkflow ?? 'default', enabled: input.enabled ?? true, inputs: input.inputs ?? {} });
    const secret = d.source._tag === 'Webhook' ? newSecret() : undefined;
    const decided = decideCreateTrigger(this.store.get(id) ?? null, { ruleId: id, definition: d, ...(secret ? { secretHash: hashSecret(secret) } : {}), facts: { problem: definitionProblem(this.port, d) } });
    return this.afterChange(id, decided, secret);
  }

  change(id: string, patch: PatchInput): Outcome<RuleAnswer> {
    const rule = this.live(id);
    if (!rule) return left(notFound('trigger rule', id));
    const { newSecret: rotate, ...fields } = patch;
    const d = this.normalized({ ...rule.definition, ...fields });
    const needsSecret = d.source._tag === 'Webhook' && (rotate === true || rule.secretHash === null);
    if (rotate && d.source._tag !== 'Webhook') return left(conflict('only a Webhook rule has a secret'));
    const secret = needsSecret ? newSecret() : undefined;
    // Only a change to what runs is checked again: a rule whose workflow broke can still be disabled or renamed.
    const problem = runsDifferently(rule.definition, d) ? definitionProblem(this.port, d) : null;
    const decided = decideChangeTrigger(rule, { ruleId: id, definition: d, ...(secret ? { secretHash: hashSecret(secret) } : {}), facts: { problem } });
    return this.afterChange(id, decided, secret);
  }

  remove(id: string): Outcome<{ deleted: string }> {
    const d = decideDeleteTrigger(this.live(id), { ruleId: id });
    if (isLeft(d)) return d;
    this.store.transact(id, () => d, { at: this.at(), onStale: 'refuse' });
    this.runner.restart(this.store.get(id)!);
    return right({ deleted: id });
  }

  /** "Run now": a Manual event of its own, whatever the rule's source, enabled or not. */
  fireNow(id: string, body: WebhookBody): Outcome<FireOutcome> {
    if (!this.live(id)) return left(notFound('trigger rule', id));
    const eventId = `manual:${this.port.newId('e')}`;
    return this.fire(id, { id: eventId, kind: 'Manual', summary: body.summary ?? 'fired by hand', ...(body.url ? { url: body.url } : {}), fields: body.fields ?? {} });
  }

  /** Whether a delivery may go on, asked before its body is read: a stranger learns nothing more. */
  admits(id: string, secret: string): Outcome<boolean> {
    const rule = this.live(id);
    if (!rule) return left(notFound('trigger rule', id));
    if (rule.definition.source._tag !== 'Webhook') return left(conflict(`trigger rule ${id} takes no webhook deliveries: its source is ${rule.definition.source._tag}`));
    if (!secretMatches(secret, rule.secretHash)) return right(false);
    return rule.definition.enabled ? right(true) : left(conflict(`trigger rule ${id} is disabled; enable it to take deliveries`));
  }

  deliver(id: string, secret: string, deliveryId: string | null, body: WebhookBody, raw: string): Outcome<Delivery> {
    const admitted = this.admits(id, secret);
    if (isLeft(admitted)) return admitted;
    if (!admitted.right) return right({ _tag: 'BadSecret' });
    const fired = this.fire(id, webhookEvent(body, deliveryId, raw));
    return isLeft(fired) ? fired : right({ _tag: 'Fired', outcome: fired.right });
  }

  events(id: string, limit: number) {
    const rule = this.live(id);
    return rule ? right({ events: eventViews(rule, (r) => this.port.run(r), limit) }) : left(notFound('trigger rule', id));
  }

  private fire(id: string, e: IncomingEvent): Outcome<FireOutcome> {
    return fireRule(this.port, this.store, () => this.clock.now(), id, e);
  }

  private afterChange(id: string, decided: Outcome<TriggerEvent[]>, secret: string | undefined): Outcome<RuleAnswer> {
    if (isLeft(decided)) return decided;
    const rule = this.commit(id, decided);
    if (decided.right.length > 0) this.runner.restart(rule);
    return right({ rule: this.view(rule), ...(secret ? { secret } : {}) });
  }

  private commit(id: string, decided: Outcome<TriggerEvent[]>): TriggerRule {
    if (!isLeft(decided)) this.store.transact(id, () => decided, { at: this.at(), onStale: 'refuse' });
    return this.store.get(id)!;
  }

  // A project named by its name is stored by its id, so renaming the project keeps the rule.
  private normalized(d: TriggerDefinition): TriggerDefinition {
    const p = findProject(this.port.projects(), d.project);
    return p ? { ...d, project: p.id } : d;
  }

  private live(id: string): TriggerRule | null {
    const r = this.store.get(id);
    return r && !r.deleted ? r : null;
  }

  private view(r: TriggerRule): RuleView { return ruleView(r, this.runner.status(r.id)); }
  private at(): string { return this.clock.now().toISOString(); }
}
