// What the push stream (GET /api/events) sends: Server-Sent Events frames. `data` is JSON text,
// serialised once per change and shared by every connection that receives it.

export interface Frame {
  readonly event: string;
  readonly id?: string;
  readonly data: string;
}

/** One connection's sink. `deliver` writes at once; the hub never waits on a slow client. */
export interface Sink {
  deliver(frame: Frame): void;
}

export const frame = (event: string, data: unknown, id?: string): Frame => ({ event, data: JSON.stringify(data), ...(id === undefined ? {} : { id }) });

/** The wire form; `data` is one line because JSON.stringify never emits a raw newline. */
export const encodeFrame = (f: Frame): string => `${f.id === undefined ? '' : `id: ${f.id}\n`}event: ${f.event}\ndata: ${f.data}\n\n`;

export const KEEP_ALIVE = ': keep-alive\n\n';

/** the most events a resume replays; further behind, the client is told to reload (`reset`) */
export const MAX_REPLAY = 2000;
