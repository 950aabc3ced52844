import { decideEndWindow, decideLimitHarness } from '../../commands/harness-window.js';
import { limitOf } from '../../projections/harness-windows.js';
import type { HarnessWindowsPort } from '../engine/deps.js';
import type { HarnessName } from '../../domain/workflow.js';
import type { ServiceCore } from '../service/core.js';

// The harness windows as the facade and the engine's port read and record them (the stream is
// lib/state/harness-windows.ts).

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
