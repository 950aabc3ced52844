import type { NotifyEvent } from '../journal/notify-events.js';

// The notification command's record: which notices it was started for (each once), and the last
// failure, shown in Settings.

export interface NotifyState {
  readonly started: ReadonlySet<string>;
  readonly lastFailure: { readonly key: string; readonly kind: string; readonly runId: string | null; readonly detail: string } | null;
}

export const NO_NOTIFICATIONS: NotifyState = { started: new Set(), lastFailure: null };

export const evolveNotify = (s: NotifyState, e: NotifyEvent): NotifyState => {
  switch (e.type) {
    case 'NotifyCommandStarted': return { ...s, started: new Set(s.started).add(e.data.key) };
    case 'NotifyCommandFailed': return { ...s, lastFailure: { key: e.data.key, kind: e.data.kind, runId: e.data.runId, detail: e.data.detail } };
  }
};
