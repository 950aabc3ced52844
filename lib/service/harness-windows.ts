import { HARNESS_EVENT_CODECS, type HarnessEvent } from '../../journal/harness-events.js';
import type { Journal } from '../../journal/journal.js';
import { decideEndWindow, decideLimitHarness } from '../../commands/harness-window.js';
import { evolveHarnessWindows, limitOf, NO_WINDOWS, type HarnessWindows } from '../../projections/harness-windows.js';
import type { HarnessWindowsPort } from '../engine/deps.js';
import { SingleStream } from '../state/event-stream.js';
import type { HarnessName } from '../workflows/model.js';
import type { ServiceCore } from './core.js';

// The harnesses' quota windows: one journal ('harnesses'), folded at open, so a restart knows
// which CLI is out of quota until when. GET /api/harnesses and the board read it; the engine
// records windows and their ends through the port below.

export type HarnessWindowStream = SingleStream<HarnessWindows, HarnessEvent>;

export const openHarnessWindows = (journal: Journal): HarnessWindowStream =>
  new SingleStream<HarnessWindows, HarnessEvent>(journal, 'harnesses', HARNESS_EVENT_CODECS, NO_WINDOWS, evolveHarnessWindows);

export const windowsPort = (core: ServiceCore): HarnessWindowsPort => {
  const at = () => ({ at: core.clock.now().toISOString(), onStale: 'retry' as const });
  return {
    limit: (h) => limitOf(core.harnessWindows.current, h, core.clock.now()),
    ready: (h) => core.availability.get(h)?._tag === 'Ready',
    limited: (harness, until, evidence, runId) => void core.harnessWindows.transact((s) => decideLimitHarness(s, { harness, until, evidence, runId }), at()),
    seenBack: (harness, runId) => void core.harnessWindows.transact((s) => decideEndWindow(s, { harness, reason: `a turn of run ${runId} went through` }), at()),
  };
};

/** each harness's window as GET /api/harnesses shows it: limitedUntil null when not limited now */
export const windowOf = (core: ServiceCore, h: HarnessName): { limitedUntil: string | null; limitEvidence?: string } => {
  const w = limitOf(core.harnessWindows.current, h, core.clock.now());
  // a window with no known end is limited until seen back: shown as the far future would mislead, so as "unknown"
  return w ? { limitedUntil: w.until ?? 'unknown', limitEvidence: w.evidence } : { limitedUntil: null };
};

/** GET /api/harnesses: each harness, whether it is ready, and its quota window */
export const harnessRows = (core: ServiceCore) =>
  (Object.keys(core.harnesses) as HarnessName[]).map((name) => ({ name, availability: core.availability.get(name) ?? { _tag: 'Unchecked' as const }, ...windowOf(core, name) }));
