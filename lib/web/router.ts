import { signal } from '@preact/signals';

// History routing: real paths (/runs/r1), so a link can be opened in a new tab, bookmarked or
// pasted; the server answers every non-/api path with index.html. `place` is the one source of
// truth for where the app is.

export interface Place {
  readonly path: string;
  readonly query: URLSearchParams;
}

const read = (): Place => ({ path: location.pathname, query: new URLSearchParams(location.search) });

export const place = signal<Place>(read());

const here = (): string => location.pathname + location.search + location.hash;
/** the address the app shows, to go back to when leaving is refused after Back was pressed */
let shown = here();

// A page with unsaved work (the workflow editor) sets a guard; it is asked before the app moves
// away, and answers false to stay. A reload or a closed tab is the page's own beforeunload.
let leaveGuard: (() => boolean) | null = null;
export const guardLeaving = (guard: (() => boolean) | null): void => { leaveGuard = guard; };

addEventListener('popstate', () => {
  // Back has already moved the address: put the page's own back when the person stays.
  if (leaveGuard && !leaveGuard()) return void history.pushState(null, '', shown);
  shown = here();
  place.value = read();
});

/** Goes to an app path; `replace` for a redirect or a filter change that should not add a Back step. */
export const navigate = (href: string, o: { readonly replace?: boolean } = {}): void => {
  const url = new URL(href, location.href);
  const next = url.pathname + url.search + url.hash;
  if (next !== here() && leaveGuard && !leaveGuard()) return;
  if (url.origin !== location.origin) return void location.assign(url.href);
  if (next !== here()) history[o.replace ? 'replaceState' : 'pushState'](null, '', next);
  shown = here();
  place.value = read();
};

/** `/runs/:id` against `/runs/r1` gives `{id: 'r1'}`; null when it does not match. */
export const match = (pattern: string, path: string): Record<string, string> | null => {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    let g: string;
    try { g = decodeURIComponent(got[i]!); } catch { return null; }
    if (w.startsWith(':')) params[w.slice(1)] = g;
    else if (w !== g) return null;
  }
  return params;
};

/** A click a link should handle itself: plain left click, no modifier (those open tabs and windows). */
export const isPlainClick = (e: MouseEvent): boolean => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented;
