import * as t from 'io-ts';
import { PREVIEW_STOP_REASONS } from '../domain/preview.js';

// Previews are one journal ('previews'): every start and stop of a run's dev server, so a restart
// knows which process groups a killed server left behind and the run page can say a preview stopped.

const Reason = t.keyof(Object.fromEntries(PREVIEW_STOP_REASONS.map((r) => [r, null])) as Record<(typeof PREVIEW_STOP_REASONS)[number], null>);

export const PREVIEW_EVENT_CODECS = {
  // the process group's leader with its start time (lib/harness/process-group.ts), and the port svc picked
  PreviewStarted: t.type({ runId: t.string, port: t.number, pid: t.number, startTime: t.string, folder: t.string, byStep: t.boolean }),
  PreviewStopped: t.type({ runId: t.string, reason: Reason, detail: t.union([t.string, t.null]) }),
  // setup ran in this folder against this lockfile fingerprint ('' when the folder has none)
  PreviewSetupRan: t.type({ runId: t.string, folder: t.string, lockfile: t.string, exitCode: t.union([t.number, t.null]) }),
} as const;

type Codecs = typeof PREVIEW_EVENT_CODECS;
export type PreviewEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
