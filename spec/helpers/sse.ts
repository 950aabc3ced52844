import { eventually } from './env.js';

// A Server-Sent Events reader for tests: the frames as they arrive (event, id, parsed data), the
// comments (keep-alives), and close() to drop the connection the way a lost network would.

export interface SseFrame { readonly event: string; readonly id: string | undefined; readonly data: any }

export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  readonly frames: SseFrame[];
  readonly comments: string[];
  /** the id of the last frame that carried one, as EventSource keeps it for Last-Event-ID */
  lastId(): string | undefined;
  until(ok: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<SseFrame[]>;
  close(): void;
  /** the error body when the server refused the stream */
  readonly refusal?: any;
}

export const openSse = async (url: string, headers: Record<string, string> = {}): Promise<SseStream> => {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  let lastId: string | undefined;
  const base = {
    status: res.status, headers: res.headers, frames, comments,
    lastId: () => lastId,
    until: (ok: (f: SseFrame[]) => boolean, timeoutMs?: number) => eventually(() => frames, ok, timeoutMs),
    close: () => abort.abort(),
  };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return { ...base, refusal: await res.json() };
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          let event = 'message';
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (id !== undefined) lastId = id;
          if (data.length) frames.push({ event, id, data: JSON.parse(data.join('\n')) });
        }
      }
    } catch { /* closed by the test */ }
  })();
  return base;
};
