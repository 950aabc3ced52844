import type { PreviewState, PreviewView } from '../../domain/preview.js';
import { previewPath, stopNote } from '../../domain/preview.js';
import type { PreviewRecord } from '../../projections/previews.js';
import type { FoundCommand } from './command.js';
import type { Box } from './box.js';

// What a run's preview looks like to the doors: the live process if there is one, else the record.

export interface Live {
  readonly runId: string;
  state: Exclude<PreviewState, 'off' | 'stopped'>;
  port: number | null;
  /** the unix socket of its sandbox's bridge, when it runs in svc's sandbox */
  socket: string | null;
  /** its sandbox, closed when it stops */
  box: Box | null;
  leader: { readonly pid: number; readonly startTime: string } | null;
  /** clock ms of the last request through the proxy (or of the start) */
  lastRequest: number;
  readonly abort: AbortController;
  readonly byStep: boolean;
  /** what starting it did to another preview, said once on its view */
  readonly note: string | null;
  ready: Promise<boolean>;
}

const DOING: Record<Live['state'], string> = { 'setting-up': 'Running setup', starting: 'Starting; waiting for its port to answer', running: 'Running' };

export const previewView = (runId: string, l: Live | undefined, rec: PreviewRecord | undefined, found: FoundCommand, baseUrl: string): PreviewView => {
  const path = l?.state === 'running' ? previewPath(runId) : null;
  const state: PreviewState = l ? l.state : rec?.stopReason ? 'stopped' : 'off';
  const note = l ? (l.note ?? DOING[l.state]) : rec?.stopReason ? stopNote(rec.stopReason, rec.stopDetail) : null;
  return {
    runId, state, path, url: path ? `${baseUrl}${path}` : null, port: l?.port ?? null,
    startedAt: l ? rec?.startedAt ?? null : rec?.startedAt ?? null, stoppedAt: l ? null : rec?.stoppedAt ?? null,
    stopReason: l ? null : rec?.stopReason ?? null, note, command: found.command, fileProblem: found.fileProblem,
  };
};
