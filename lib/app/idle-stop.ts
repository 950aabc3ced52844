import type { StreamWatch } from '../http/stream-watch.js';

// With the default browser `svc app` has no child process to watch, so the app's push stream
// stands for the window: when the last /api/events stream has been gone for the grace period the
// window is taken as closed. The grace period covers a reload or a network hiccup (the app
// reconnects within seconds); the longer first wait covers a browser that is slow to start.

export interface IdleOptions {
  /** after the last stream closed */
  readonly graceMs: number;
  /** from start until the first stream opens */
  readonly firstMs: number;
  /** `connected`: whether any stream ever opened (false: the first wait ran out) */
  readonly onIdle: (connected: boolean) => void;
}

export interface IdleStop extends StreamWatch {
  dispose(): void;
}

export const idleStop = (o: IdleOptions): IdleStop => {
  let open = 0;
  let timer: NodeJS.Timeout | undefined = setTimeout(() => o.onIdle(false), o.firstMs);
  const clear = () => { if (timer) clearTimeout(timer); timer = undefined; };
  return {
    opened: () => { open++; clear(); },
    closed: () => {
      open = Math.max(0, open - 1);
      if (open === 0) { clear(); timer = setTimeout(() => o.onIdle(true), o.graceMs); }
    },
    dispose: clear,
  };
};
