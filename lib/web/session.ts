// The window side of `svc app`'s hand-over. The server opened this window at `/#code=<one-time
// code>`: the fragment never reaches a server or a request log. At start-up the app trades the
// code once for the server's secret, keeps the secret in sessionStorage (this tab only, gone when
// the window closes) and takes the code out of the address bar, so no copy of the URL carries it.
// lib/web/api.ts sends the secret as `Authorization: Bearer` on every /api call.
//
// While it holds a secret the window also keeps one /api/events stream open: with the default
// browser, `svc app` has no process to watch and takes the window for closed once its last
// stream has been gone for a grace period (docs/app-window.md). Pages open their own streams as
// they need; this one only has to be there.

import { SECRET_KEY } from './api.js';

export const SESSION_PATH = '/api/app/session';
export const PRESENCE_PATH = '/api/events?runs';
const RETRY_MS = 3000;

export type SessionStart =
  | { readonly kind: 'none' } // a headless server: no code, no secret
  | { readonly kind: 'started' } // the code bought the secret
  | { readonly kind: 'resumed' } // a reload: the secret is already held
  | { readonly kind: 'refused'; readonly detail: string };

const codeIn = (hash: string): { code: string; rest: string } | null => {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('code');
  if (!code) return null;
  params.delete('code');
  const rest = params.toString();
  return { code, rest: rest ? `#${rest}` : '' };
};

const exchange = async (code: string): Promise<{ secret: string } | { detail: string }> => {
  let res: Response;
  try {
    res = await fetch(SESSION_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  } catch {
    return { detail: 'the server cannot be reached; start `svc app` again' };
  }
  const data = (await res.json().catch(() => ({}))) as { secret?: unknown; detail?: unknown };
  if (res.ok && typeof data.secret === 'string') return { secret: data.secret };
  return { detail: typeof data.detail === 'string' ? data.detail : `the window could not sign in (${res.status})` };
};

let presence = false;

// Reads the stream to its end and opens it again; a refusal (a server that no longer knows this
// secret) ends it, as does the window closing.
const holdPresence = (secret: string): void => {
  if (presence) return;
  presence = true;
  const loop = async () => {
    for (;;) {
      try {
        const res = await fetch(PRESENCE_PATH, { headers: { accept: 'text/event-stream', authorization: `Bearer ${secret}` } });
        if (res.status >= 400 && res.status < 500) return;
        const reader = res.body?.getReader();
        if (reader) while (!(await reader.read()).done) { /* being open is all that counts */ }
      } catch {
        /* the server is away for now: try again */
      }
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  };
  void loop();
};

const storedSecret = (): string | null => {
  try { return sessionStorage.getItem(SECRET_KEY); } catch { return null; }
};

/** Call once at start-up, before the first /api request. */
export const startSession = async (): Promise<SessionStart> => {
  const found = codeIn(location.hash);
  if (!found) {
    const held = storedSecret();
    if (!held) return { kind: 'none' };
    holdPresence(held);
    return { kind: 'resumed' };
  }
  // Out of the address bar before anything else: a reload must not retry a spent code.
  history.replaceState(history.state, '', `${location.pathname}${location.search}${found.rest}`);
  const got = await exchange(found.code);
  if ('detail' in got) return { kind: 'refused', detail: got.detail };
  sessionStorage.setItem(SECRET_KEY, got.secret);
  holdPresence(got.secret);
  return { kind: 'started' };
};
