import { authHeaders } from './api.js';

// A client for GET /api/events. EventSource cannot send an Authorization header, so this reads the
// stream with fetch. It keeps the id of the last event handled and, when the connection drops,
// reconnects with it as Last-Event-ID: the server then sends exactly what was missed.
// A refusal (4xx) is final and reported; anything else (server away, network) is retried.

export type StreamState = 'connecting' | 'open' | 'retrying' | 'refused' | 'closed';

export interface StreamOptions {
  /** resume after this id (e.g. the `svc-event-id` header of GET /api/runs) */
  readonly lastEventId?: string;
  readonly onState?: (state: StreamState, detail?: string) => void;
}

export interface EventStream {
  readonly lastId: () => string | undefined;
  close(): void;
}

/** event name -> handler of its parsed data */
export type Handlers = Readonly<Record<string, (data: any, id: string | undefined) => void>>;

const MAX_RETRY_MS = 30_000;

export const openEvents = (query: string, handlers: Handlers, o: StreamOptions = {}): EventStream => {
  let lastId = o.lastEventId;
  let closed = false;
  let retryMs = 3000;
  let failures = 0;
  const abort = new AbortController();
  const state = (s: StreamState, detail?: string) => { if (!closed || s === 'closed') o.onState?.(s, detail); };

  const dispatch = (event: string, data: string, id: string | undefined) => {
    if (id !== undefined) lastId = id;
    const h = handlers[event];
    if (!h || data === '') return;
    let parsed: unknown;
    try { parsed = JSON.parse(data); } catch { return; }
    h(parsed, id);
  };

  // The SSE wire format: fields per line, an empty line ends an event, ':' starts a comment.
  const read = async (body: ReadableStream<Uint8Array>) => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    let event = '';
    let data: string[] = [];
    let id: string | undefined;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf[nl] === '\r' && buf[nl + 1] === '\n' ? 2 : 1));
        if (line === '') {
          if (data.length || id !== undefined) dispatch(event || 'message', data.join('\n'), id);
          event = ''; data = []; id = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
      }
    }
  };

  const loop = async () => {
    while (!closed) {
      state(failures ? 'retrying' : 'connecting');
      try {
        const res = await fetch(`/api/events?${query}`, {
          headers: { accept: 'text/event-stream', ...authHeaders(), ...(lastId ? { 'last-event-id': lastId } : {}) },
          cache: 'no-store',
          signal: abort.signal,
        });
        if (res.status >= 400 && res.status < 500 && res.status !== 429) {
          const body = await res.json().catch(() => null) as { detail?: string } | null;
          state('refused', body?.detail ?? `HTTP ${res.status}`);
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        failures = 0;
        state('open');
        await read(res.body);
      } catch {
        if (closed) return;
      }
      if (closed) return;
      failures++;
      state('retrying');
      const wait = Math.min(MAX_RETRY_MS, retryMs * Math.min(failures, 10));
      await new Promise((r) => setTimeout(r, wait));
    }
  };
  void loop();

  return {
    lastId: () => lastId,
    close: () => {
      if (closed) return;
      closed = true;
      abort.abort();
      state('closed');
    },
  };
};
