import { newToken } from '../ids.js';

// `svc app` hands its window a one-time code, not the secret: the code rides in the URL fragment
// (never sent to a server, never in a request log) and the app trades it once, within a minute,
// for the secret via POST /api/app/session. A code seen on a command line or in a browser's
// history afterwards is worthless.

export const CODE_TTL_MS = 60_000;

export interface AppCodes {
  /** a fresh code, good for one exchange within the time to live */
  issue(): string;
  /** true once for a code that was issued and has not expired; the code is gone afterwards either way */
  redeem(code: string): boolean;
}

export const appCodes = (now: () => number = Date.now, ttlMs = CODE_TTL_MS): AppCodes => {
  const expiries = new Map<string, number>();
  const sweep = () => {
    const t = now();
    for (const [code, until] of expiries) if (until <= t) expiries.delete(code);
  };
  return {
    issue: () => {
      sweep();
      const code = newToken();
      expiries.set(code, now() + ttlMs);
      return code;
    },
    redeem: (code) => {
      const until = expiries.get(code);
      expiries.delete(code);
      return until !== undefined && now() < until;
    },
  };
};
