import { effect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { useRunsIndex } from '../data/runs-index.js';
import { navigate } from '../router.js';
import { badgedFavicon, needsCount, titleWith } from './count.js';
import { freshNotices, type Notice } from './notices.js';
import { pageTitle } from './page-title.js';
import { readPrefs, readSeen, writeSeen } from './prefs.js';

// The shell's "needs you": follows the runs index (the same push stream the Runs page uses) and
// keeps the tab's title and favicon carrying the count; when a run comes to need the person it
// shows a browser notification, if this browser turned them on (Settings) and granted the
// permission. Runs that already needed you when the page loaded are counted, not notified.
// Clicking a notification brings this tab forward on that run's page.

const showNotice = (n: Notice): void => {
  const prefs = readPrefs();
  if (!prefs.enabled || !prefs.kinds.includes(n.kind) || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  // `tag`: another tab showing the same notice replaces it rather than adding a second
  const note = new Notification(n.title || n.runId, { body: n.body, tag: n.key });
  note.onclick = () => {
    window.focus();
    navigate(`/runs/${encodeURIComponent(n.runId)}`);
    note.close();
  };
};

const setFavicon = (href: string | null): void => {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link) link.href = href ?? '/favicon.svg';
};

export const useNeedsYou = (): void => {
  const index = useRunsIndex(false);
  useEffect(() => {
    let seeded = false;
    return effect(() => {
      const rows = index.rows.value;
      const count = needsCount(rows.values());
      document.title = titleWith(count, pageTitle.value);
      setFavicon(badgedFavicon(count));
      if (!index.loaded.value) return;
      const seen = readSeen(); // read each time: another tab may have shown some already
      const fresh = freshNotices(rows.values(), seen);
      for (const n of fresh) seen.add(n.key);
      if (fresh.length) writeSeen(seen);
      if (seeded) fresh.forEach(showNotice);
      seeded = true;
    });
  }, [index]);
};
