import type { StreamWatch } from '../http/stream-watch.js';
import { idleStop, type IdleStop } from './idle-stop.js';

// When is the window gone? With a browser we started in --app mode, when its process ends. But a
// Chromium already running on the same profile (left over from a `svc app` that was killed) takes
// the window over and our process ends at once with code 0, before the app ever connected: the
// window then lives in another process (which holds the profile's lock), and, as with the default
// browser, only the app's push stream can tell when it has gone. Ending with code 0 before the app
// connected while no other browser holds the profile is a window closed early. A browser that ends
// with an error before the app connected opened no window at all.

export interface WindowTimes {
  /** after the last stream closed */
  readonly graceMs: number;
  /** from start (or the take-over) until the first stream opens */
  readonly firstMs: number;
}

export interface WindowWatch extends StreamWatch {
  /** the browser process `svc app` started has ended */
  browserExited(code: number | null): void;
  dispose(): void;
}

export const windowWatch = (mode: 'app' | 'default', times: WindowTimes, stop: (why: string) => void, note: (what: string) => void, handedOver: () => boolean = () => true): WindowWatch => {
  let seen = false;
  const followStreams = (): IdleStop => idleStop({
    ...times,
    onIdle: (connected) => stop(connected ? 'the app window has been gone for the grace period' : 'no app window connected within the first wait'),
  });
  let idle: IdleStop | undefined = mode === 'default' ? followStreams() : undefined;
  return {
    opened: () => { seen = true; idle?.opened(); },
    closed: () => { idle?.closed(); },
    browserExited: (code) => {
      if (idle) return;
      if (seen) return stop('the window closed');
      if (code !== 0) return stop(`the browser ended (exit code ${code ?? 'none'}) before the app connected`);
      if (!handedOver()) return stop('the window closed before the app connected');
      note('the browser handed the window to one already running; svc app now follows the app\'s push stream');
      idle = followStreams();
    },
    dispose: () => idle?.dispose(),
  };
};
