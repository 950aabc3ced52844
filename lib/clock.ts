// Time for the trigger sources. The real clock sleeps on timers; tests pass a clock they move by
// hand (spec/triggers), so a schedule fires when the test says so, not when the wall clock does.

export interface Clock {
  now(): Date;
  /** resolves at `when` (at once if it has passed), or early when `signal` aborts */
  sleepUntil(when: Date, signal: AbortSignal): Promise<void>;
}

// setTimeout holds at most 2^31-1 ms (about 24.8 days): longer waits sleep in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => new Date(),
  sleepUntil: async (when, signal) => {
    while (!signal.aborted && Date.now() < when.getTime()) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, Math.min(MAX_TIMER_MS, when.getTime() - Date.now()));
        function done(): void { clearTimeout(t); signal.removeEventListener('abort', done); resolve(); }
        signal.addEventListener('abort', done, { once: true });
      });
    }
  },
};
