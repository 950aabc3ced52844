import type { PreviewEvent } from '../journal/preview-events.js';
import type { PreviewStopReason } from '../domain/preview.js';

// Each run's preview as recorded: running (with its process group's leader) or stopped and why,
// and the lockfile setup last ran against in each of its folders.

export interface PreviewRecord {
  readonly runId: string;
  readonly running: boolean;
  readonly port: number | null;
  readonly leader: { readonly pid: number; readonly startTime: string } | null;
  readonly folder: string | null;
  readonly byStep: boolean;
  readonly startedAt: string | null;
  readonly stoppedAt: string | null;
  readonly stopReason: PreviewStopReason | null;
  readonly stopDetail: string | null;
  /** folder -> lockfile fingerprint setup last succeeded against */
  readonly setupDone: Readonly<Record<string, string>>;
}

export type Previews = ReadonlyMap<string, PreviewRecord>;

const blank = (runId: string): PreviewRecord => ({
  runId, running: false, port: null, leader: null, folder: null, byStep: false, startedAt: null, stoppedAt: null, stopReason: null, stopDetail: null, setupDone: {},
});

export const evolvePreviews = (ps: Previews, e: PreviewEvent & { readonly at?: string }): Previews => {
  const p = ps.get(e.data.runId) ?? blank(e.data.runId);
  const at = e.at ?? null;
  switch (e.type) {
    case 'PreviewStarted':
      return new Map(ps).set(p.runId, { ...p, running: true, port: e.data.port, leader: { pid: e.data.pid, startTime: e.data.startTime }, folder: e.data.folder, byStep: e.data.byStep, startedAt: at, stoppedAt: null, stopReason: null, stopDetail: null });
    case 'PreviewStopped':
      return new Map(ps).set(p.runId, { ...p, running: false, stoppedAt: at, stopReason: e.data.reason, stopDetail: e.data.detail });
    case 'PreviewSetupRan':
      return e.data.exitCode === 0 ? new Map(ps).set(p.runId, { ...p, setupDone: { ...p.setupDone, [e.data.folder]: e.data.lockfile } }) : ps;
  }
};

export const runningPreviews = (ps: Previews): PreviewRecord[] => [...ps.values()].filter((p) => p.running);
