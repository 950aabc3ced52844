import { useEffect, useRef, useState } from 'preact/hooks';
import { match, place } from './router.js';
import { NOT_FOUND, ROUTES, type PageModule, type Route } from './routes.js';
import { ShortcutsHelp, useShortcuts } from './shortcuts.js';
import { useNeedsYou } from './needs-you/use-needs-you.js';
import { Link } from './ui/link.js';
import { ErrorNote, Loading } from './ui/page.js';

// The shell: a skip link, the banner with the main navigation, and the current page in <main>.
// After an in-app move, focus goes to <main> so keyboard and screen-reader users start at the new
// page rather than at the link they left. On a phone the navigation is one row that scrolls
// sideways; the current page's entry is scrolled into it. `?` lists the keyboard shortcuts.

const resolve = (path: string): { route: Route; params: Record<string, string> } => {
  for (const route of ROUTES) {
    const params = match(route.path, path);
    if (params) return { route, params };
  }
  return { route: NOT_FOUND, params: {} };
};

const loaded = new Map<Route, PageModule>();

const isCurrent = (nav: Route, route: Route): boolean => nav === route || route.section === nav.path;

export const App = () => {
  const { path, query } = place.value;
  const { route, params } = resolve(path);
  const [, setTick] = useState(0);
  const [failed, setFailed] = useState<{ route: Route; error: Error } | null>(null);
  const main = useRef<HTMLElement>(null);
  const nav = useRef<HTMLElement>(null);
  const shortcuts = useShortcuts();
  // Once a page of this window followed the whole board, the shell keeps reading its count from
  // that index (already loaded, one stream) rather than opening a second stream on the next page.
  const wholeBoard = useRef(false);
  if (route.wholeBoard) wholeBoard.current = true;
  useNeedsYou(wholeBoard.current);
  const first = useRef(true);
  const mod = loaded.get(route);

  useEffect(() => {
    if (loaded.has(route)) return;
    let live = true;
    route.load().then(
      (m) => { loaded.set(route, m); if (live) setTick((n) => n + 1); },
      (error: Error) => { if (live) setFailed({ route, error }); },
    );
    return () => { live = false; };
  }, [route]);

  useEffect(() => {
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [route]);

  useEffect(() => {
    if (first.current) { first.current = false; return; }
    main.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [path]);

  const Page = mod?.Page;
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="banner">
        <Link href="/" class="brand" aria-label="svc, runs">svc</Link>
        <nav aria-label="Main" ref={nav}
          onFocusIn={(e) => (e.target as HTMLElement).scrollIntoView({ block: 'nearest', inline: 'nearest' })}>
          <ul>
            {ROUTES.filter((r) => r.nav).map((r) => (
              <li key={r.path}>
                <Link href={r.path} aria-current={isCurrent(r, route) ? 'page' : undefined}>{r.nav}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {failed?.route === route ? <ErrorNote error={`This page could not be loaded: ${failed.error.message}`} />
          : Page ? <Page key={path} params={params} query={query} />
          : <Loading what="the page" />}
      </main>
      {shortcuts.help && <ShortcutsHelp onClose={shortcuts.closeHelp} />}
    </>
  );
};
