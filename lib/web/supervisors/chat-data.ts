import { signal, type Signal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { openEvents, type StreamState } from '../events.js';
import type { ChatEntry, ChatPage } from './shapes.js';

// One supervisor's chat, live: the stream (`/api/events?supervisor=<id>`) is opened first and the
// newest page is read once it says `ready`, so nothing recorded in between is missed; entries are
// merged by seq, so what arrives both ways is shown once. `earlier()` pages back with `before`.

export interface ChatData {
  readonly entries: Signal<readonly ChatEntry[]>;
  /** the cursor of the page before the oldest entry held; null at the chat's start */
  readonly before: Signal<number | null>;
  readonly loading: Signal<boolean>;
  readonly error: Signal<ApiError | string | null>;
  readonly stream: Signal<StreamState>;
  earlier(): Promise<void>;
  /** shows an entry an answer carried (a message just sent) without waiting for the stream */
  add(e: ChatEntry): void;
}

const PAGE = 50;

const merge = (held: readonly ChatEntry[], more: readonly ChatEntry[]): ChatEntry[] => {
  if (more.length === 0) return held as ChatEntry[];
  const bySeq = new Map<number, ChatEntry>();
  for (const e of held) bySeq.set(e.seq, e);
  for (const e of more) bySeq.set(e.seq, e);
  return [...bySeq.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
};

/** `onNew` hears every entry the stream brings (the page reloads cards and the view on some). */
export const createChat = (id: string, onNew: (e: readonly ChatEntry[]) => void): ChatData & { follow(): () => void } => {
  let stopped = false;
  const path = `supervisors/${encodeURIComponent(id)}/chat`;
  const d = {
    entries: signal<readonly ChatEntry[]>([]), before: signal<number | null>(null), loading: signal(false),
    error: signal<ApiError | string | null>(null), stream: signal<StreamState>('connecting'),
  };

  const load = async (before?: number) => {
    d.loading.value = true;
    try {
      const page = await api<ChatPage>(`${path}?pageSize=${PAGE}${before !== undefined ? `&before=${before}` : ''}`);
      if (stopped) return;
      d.entries.value = merge(d.entries.value, page.entries);
      // only the first read (or a page back) moves the cursor: a reload after `reset` starts over
      d.before.value = page.before;
      d.error.value = null;
    } catch (err) {
      if (!stopped) d.error.value = err as ApiError;
    } finally {
      d.loading.value = false;
    }
  };

  const earlier = async () => {
    const before = d.before.value;
    if (before === null || d.loading.value) return;
    await load(before);
  };

  const follow = () => {
    const events = openEvents(`supervisor=${encodeURIComponent(id)}`, {
      ready: () => void load(),
      chat: (m: { entries?: ChatEntry[] }) => {
        const more = m.entries ?? [];
        d.entries.value = merge(d.entries.value, more);
        if (more.length) onNew(more);
      },
      // The server cannot resume from where this page was: read the chat again from its newest page.
      reset: () => { d.entries.value = []; d.before.value = null; void load(); onNew([]); },
    }, { onState: (s, detail) => { d.stream.value = s; if (s === 'refused' && detail) d.error.value = detail; } });
    return () => { stopped = true; events.close(); };
  };

  return { ...d, earlier, follow, add: (e) => { d.entries.value = merge(d.entries.value, [e]); } };
};

/** The chat for as long as the calling component is shown. */
export const useChat = (id: string, onNew: (e: readonly ChatEntry[]) => void): ChatData => {
  // the latest onNew, so the stream opened once per supervisor calls what the page renders now
  const onNewRef = useRef(onNew);
  onNewRef.current = onNew;
  const data = useMemo(() => createChat(id, (e) => onNewRef.current(e)), [id]);
  useEffect(() => data.follow(), [data]);
  return data;
};
