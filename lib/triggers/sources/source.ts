import type { TriggerEventFacts } from '../../../commands/trigger-fire.js';
import type { TriggerRule } from '../../../projections/trigger-rule.js';
import type { Settings } from '../../../domain/settings.js';
import type { Clock } from '../../clock.js';
import type { EventFields } from '../template.js';

// What every source adapter gets and gives. A source turns the world into events with stable ids;
// the rule decides whether each fires. A source never throws at the service: it reports.

export interface IncomingEvent extends TriggerEventFacts {
  /** what templates read as {{event.<field>}}, beside kind, id, summary and url */
  readonly fields: EventFields;
}

export type SourceStatus =
  | { readonly _tag: 'Off' }
  | { readonly _tag: 'Listening' }
  | { readonly _tag: 'Watching'; readonly detail: string }
  | { readonly _tag: 'Failing'; readonly reason: string; readonly since: string };

export interface SourceContext {
  readonly rule: TriggerRule;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  settings(): Settings;
  emit(event: IncomingEvent): Promise<void>;
  status(s: SourceStatus): void;
  /** schedule only: instants that fell while the server was down, recorded as skipped */
  skipped(missed: readonly string[]): void;
}

export interface RunningSource {
  stop(): Promise<void>;
}

export const failing = (ctx: SourceContext, reason: string): void => ctx.status({ _tag: 'Failing', reason, since: ctx.clock.now().toISOString() });
