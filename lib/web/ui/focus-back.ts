import { useEffect, useRef } from 'preact/hooks';

// A button disabled while its request is out loses the keyboard's focus (the browser moves it to
// the page's body), so a keyboard or screen reader user is thrown back to the top after every
// action. `hold()` notes where focus was when the action began; when the action is done and the
// element is enabled again, focus returns to it, unless the person has moved it somewhere else.

export const useFocusBack = (busy: boolean): { readonly hold: () => void } => {
  const held = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = held.current;
    if (busy || !el) return;
    held.current = null;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && el.isConnected) el.focus();
  }, [busy]);
  return { hold: () => { held.current = document.activeElement instanceof HTMLElement ? document.activeElement : null; } };
};
