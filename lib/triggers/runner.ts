import type { TriggerRule } from '../../projections/trigger-rule.js';
import type { Settings } from '../../domain/settings.js';
import type { Clock } from '../clock.js';
import type { FireOutcome } from './fire.js';
import { refusalText, type Outcome } from '../../commands/refusal.js';
import { startCodeHost } from './sources/codehost.js';
import { startFiles } from './sources/files.js';
import { startSchedule } from './sources/schedule.js';
import { failing, type IncomingEvent, type RunningSource, type SourceContext, type SourceStatus } from './sources/source.js';

// Runs one source per enabled rule, and restarts it when the rule changes. Starts and stops go
// through one chain, so a quick change after a change never leaves two sources for one rule.
// A source that throws is shown as Failing on its rule; it never reaches the server.

export interface RunnerDeps {
  readonly clock: Clock;
  settings(): Settings;
  rule(id: string): TriggerRule | null;
  emit(ruleId: string, e: IncomingEvent): Outcome<FireOutcome>;
  skipped(ruleId: string, missed: readonly string[]): void;
}

interface Live { readonly abort: AbortController; readonly source: RunningSource }

export class SourceRunner {
  private readonly live = new Map<string, Live>();
  private readonly statuses = new Map<string, SourceStatus>();
  private chain: Promise<void> = Promise.resolve();
  private running = false;

  constructor(private readonly deps: RunnerDeps) {}

  status(id: string): SourceStatus {
    return this.statuses.get(id) ?? { _tag: 'Off' };
  }

  begin(rules: readonly TriggerRule[]): void {
    this.running = true;
    for (const r of rules) this.restart(r);
  }

  restart(rule: TriggerRule): void {
    const on = this.running && !rule.deleted && rule.definition.enabled;
    // said at once, so the answer to the change already shows it; the source reports from there
    this.statuses.set(rule.id, !on ? { _tag: 'Off' } : rule.definition.source._tag === 'Webhook' ? { _tag: 'Listening' } : { _tag: 'Watching', detail: 'starting' });
    this.chain = this.chain.then(async () => {
      await this.stopOne(rule.id);
      if (on) this.startOne(rule.id);
    });
  }

  async end(): Promise<void> {
    this.running = false;
    await this.chain;
    await Promise.all([...this.live.keys()].map((id) => this.stopOne(id)));
  }

  private async stopOne(id: string): Promise<void> {
    const l = this.live.get(id);
    if (!l) return;
    this.live.delete(id);
    l.abort.abort();
    await l.source.stop().catch(() => undefined);
  }

  private context(rule: TriggerRule, abort: AbortController): SourceContext {
    const { deps } = this;
    const alive = () => !abort.signal.aborted;
    const ctx: SourceContext = {
      rule, clock: deps.clock, signal: abort.signal, settings: deps.settings,
      status: (s) => { if (alive()) this.statuses.set(rule.id, s); },
      skipped: (missed) => deps.skipped(rule.id, missed),
      emit: async (e) => {
        if (!alive()) return;
        try {
          const r = deps.emit(rule.id, e);
          if (r._tag === 'Left') failing(ctx, `an event could not be recorded: ${refusalText(r.left)}`);
        } catch (err) {
          failing(ctx, `an event could not be recorded: ${String(err)}`);
        }
      },
    };
    return ctx;
  }

  private startOne(id: string): void {
    const rule = this.deps.rule(id);
    if (!rule) return;
    const abort = new AbortController();
    const ctx = this.context(rule, abort);
    try {
      this.live.set(id, { abort, source: this.sourceFor(ctx, rule) });
    } catch (err) {
      failing(ctx, `the source did not start: ${String(err)}`);
    }
  }

  private sourceFor(ctx: SourceContext, rule: TriggerRule): RunningSource {
    const s = rule.definition.source;
    switch (s._tag) {
      case 'Schedule': return startSchedule(ctx, s);
      case 'Files': return startFiles(ctx, s);
      case 'CodeHost': return startCodeHost(ctx, s);
      case 'Webhook':
        ctx.status({ _tag: 'Listening' });
        return { stop: async () => {} };
    }
  }
}
