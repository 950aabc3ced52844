import type { Cron } from 'croner';
import type { TriggerSource } from '../../../journal/trigger-events.js';
import { cronOf } from '../definition.js';
import { failing, type RunningSource, type SourceContext } from './source.js';

// Schedule: croner computes the instants (in the rule's time zone); the clock sleeps until each.
// An instant's event id is `schedule:<ISO instant>`, so it fires once even across restarts.
// Firings that fell while the server was down are skipped and recorded as a note on the rule.

type Schedule = Extract<TriggerSource, { _tag: 'Schedule' }>;

const MAX_COUNTED = 1000;

/** instants in (after, upTo], at most MAX_COUNTED of them */
export const instantsBetween = (cron: Cron, after: Date, upTo: Date): string[] => {
  const out: string[] = [];
  for (let next = cron.nextRun(after); next && next <= upTo && out.length < MAX_COUNTED; next = cron.nextRun(next)) out.push(next.toISOString());
  return out;
};

const loop = async (ctx: SourceContext, source: Schedule, cron: Cron, from: Date): Promise<void> => {
  for (let next = cron.nextRun(from); next && !ctx.signal.aborted; next = cron.nextRun(next)) {
    const instant = next.toISOString();
    ctx.status({ _tag: 'Watching', detail: `next firing at ${instant}` });
    await ctx.clock.sleepUntil(next, ctx.signal);
    if (ctx.signal.aborted) return;
    await ctx.emit({ id: `schedule:${instant}`, kind: 'Schedule', summary: `scheduled for ${instant} (${source.cron}, ${source.timeZone})`, fields: { instant } });
  }
  if (!ctx.signal.aborted) ctx.status({ _tag: 'Watching', detail: 'the schedule has no further firings' });
};

export const startSchedule = (ctx: SourceContext, source: Schedule): RunningSource => {
  let cron: Cron;
  try {
    cron = cronOf(source.cron, source.timeZone);
  } catch (err) {
    failing(ctx, `the schedule does not load: ${(err as Error).message}`);
    return { stop: async () => {} };
  }
  const now = ctx.clock.now();
  const cursor = new Date(ctx.rule.scheduleCursor);
  const missed = instantsBetween(cron, cursor, now);
  if (missed.length) ctx.skipped(missed);
  const running = loop(ctx, source, cron, cursor > now ? cursor : now).catch((err: unknown) => failing(ctx, `the schedule stopped: ${String(err)}`));
  return { stop: async () => { await running; } };
};
