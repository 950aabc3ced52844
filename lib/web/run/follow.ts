import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

// Following a growing page: while the person is at the end of it, new content scrolls into view;
// once they have scrolled up to read, it does not move under them, and `behind` offers the way
// back. The page as first drawn is not scrolled: what was there before they came is not news.

const SLACK_PX = 48;

const atEnd = (): boolean => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SLACK_PX;

const toEnd = (): void => window.scrollTo({ top: document.documentElement.scrollHeight });

/**
 * `newest` names the newest content (its last row, how many calls have ended): each change is
 * something new. null while the first pages or earlier ones load: neither is news.
 */
export const useFollow = (newest: string | null): { readonly behind: boolean; jump(): void } => {
  const following = useRef(true);
  const last = useRef<string | null>(null);
  const [behind, setBehind] = useState(false);
  useEffect(() => {
    const onScroll = () => {
      following.current = atEnd();
      if (following.current) setBehind(false);
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    if (newest === null) return;
    const first = last.current === null;
    const grew = !first && newest !== last.current;
    last.current = newest;
    // a page first drawn long, seen from its top, is not being followed
    if (first) following.current = atEnd();
    if (first || !grew) return;
    if (following.current) toEnd();
    else setBehind(true);
  }, [newest]);
  return { behind, jump: () => (toEnd(), setBehind(false)) };
};
