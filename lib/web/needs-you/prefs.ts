import type { NoticeKind } from './count.js';

// Browser notifications are a choice of this browser, kept in its localStorage (the permission
// is the browser's too): on or off, and which kinds. Also kept there: the notices already shown,
// so a reload or a reconnect never shows one twice.

export const NOTICE_KINDS: readonly NoticeKind[] = ['question', 'gate', 'failed', 'paused', 'card'];
export interface NotifyPrefs { readonly enabled: boolean; readonly kinds: readonly NoticeKind[] }

const PREFS = 'svc.notify';
const SEEN = 'svc.notified';
const KEEP = 500;

export const readPrefs = (): NotifyPrefs => {
  try {
    const p = JSON.parse(localStorage.getItem(PREFS) ?? 'null') as Partial<NotifyPrefs> | null;
    return { enabled: p?.enabled === true, kinds: Array.isArray(p?.kinds) ? p.kinds.filter((k) => NOTICE_KINDS.includes(k)) : [...NOTICE_KINDS] };
  } catch {
    return { enabled: false, kinds: [...NOTICE_KINDS] };
  }
};

export const writePrefs = (p: NotifyPrefs): void => {
  try { localStorage.setItem(PREFS, JSON.stringify(p)); } catch { /* storage off: the choice lasts this page */ }
};

export const readSeen = (): Set<string> => {
  try {
    const s = JSON.parse(localStorage.getItem(SEEN) ?? '[]') as unknown;
    return new Set(Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
};

/** the newest KEEP keys: a notice older than that has long left "needs you" */
export const writeSeen = (seen: ReadonlySet<string>): void => {
  try { localStorage.setItem(SEEN, JSON.stringify([...seen].slice(-KEEP))); } catch { /* as above */ }
};
