import { effect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { useNeedsIndex } from '../data/runs-index.js';
import { rowNeeds } from '../pages/runs/groups.js';
import { openEvents } from '../events.js';
import { navigate } from '../router.js';
import { badgedFavicon, needsCount, titleWith } from './count.js';
import { freshCardNotices, freshNotices, type Notice } from './notices.js';
import { pendingCards as cards, type PendingCard } from './cards.js';
import { pageTitle } from './page-title.js';
import { readPrefs, readSeen, writeSeen } from './prefs.js';

// The shell's "needs you": follows the runs that need the person (the push stream the Runs page uses) and the
// supervisors' waiting cards (the `cards` push scope), keeps the tab's title and favicon carrying
// the count, and when a run or card comes to need the person shows a browser notification, if
// this browser turned them on (Settings) and granted the permission. What already needed the
// person when the page loaded is counted, not notified. A click brings this tab forward on the
// run's page (a card about no run: the Supervisors page).

const showNotice = (n: Notice): void => {
  const prefs = readPrefs();
  if (!prefs.enabled || !prefs.kinds.includes(n.kind) || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  // `tag`: another tab showing the same notice replaces it rather than adding a second
  const note = new Notification(n.title || n.runId, { body: n.body, tag: n.key });
  note.onclick = () => {
    window.focus();
    navigate(n.href);
    note.close();
  };
};

const setFavicon = (href: string | null): void => {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link) link.href = href ?? '/favicon.svg';
};

/** marks the notices seen (in this browser's storage: another tab may have shown some already) and shows them unless seeding */
const notify = (find: (seen: ReadonlySet<string>) => Notice[], show: boolean): void => {
  const seen = readSeen();
  const fresh = find(seen);
  if (fresh.length === 0) return;
  for (const n of fresh) seen.add(n.key);
  writeSeen(seen);
  if (show) fresh.forEach(showNotice);
};

/** `wholeBoard`: the current page follows the whole board (the Runs page), so the count is read from it. */
export const useNeedsYou = (wholeBoard: boolean): void => {
  // only the runs that need the person: a page must not fetch the whole board to count them
  const index = useNeedsIndex((r) => rowNeeds(r) !== null, wholeBoard);
  useEffect(() => {
    const events = openEvents('cards', { cards: (d: { cards: PendingCard[] }) => { cards.value = d.cards; } });
    return () => events.close();
  }, []);
  useEffect(() => {
    let runsSeeded = false;
    let cardsSeeded = false;
    return effect(() => {
      const rows = index.rows.value;
      const waiting = cards.value;
      const count = needsCount(rows, waiting);
      document.title = titleWith(count, pageTitle.value);
      setFavicon(badgedFavicon(count));
      if (index.loaded.value) {
        notify((seen) => freshNotices(rows.values(), seen), runsSeeded);
        runsSeeded = true;
      }
      if (waiting && index.loaded.value) {
        notify((seen) => freshCardNotices(waiting, rows, seen), cardsSeeded);
        cardsSeeded = true;
      }
    });
  }, [index]);
};
