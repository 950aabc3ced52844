import { useEffect, useRef } from 'preact/hooks';

// A button disabled while its request is out loses the keyboard's focus (the browser moves it to
// the page's body), so a keyboard or screen reader user is thrown back to the top after every
// action. `hold()` notes where focus was when the action began; when the action is done and the
// element is enabled again, focus returns to it, unless the person has moved it somewhere else.
// An action may remove its own button (Archive the run): focus then goes to the heading of the
// form or section the button was in, so the person stays where they were working.

type Held = { readonly el: HTMLElement; readonly around: HTMLElement | null };

const headingOf = (around: HTMLElement | null): HTMLElement | null => {
  const h = around?.isConnected ? around.querySelector<HTMLElement>('h1, h2, h3, h4') : null;
  if (h && !h.hasAttribute('tabindex')) h.tabIndex = -1; // focusable by script, not a Tab stop
  return h;
};

export const useFocusBack = (busy: boolean): { readonly hold: () => void } => {
  const held = useRef<Held | null>(null);
  useEffect(() => {
    const h = held.current;
    if (busy || !h) return;
    held.current = null;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost) (h.el.isConnected ? h.el : headingOf(h.around))?.focus();
  }, [busy]);
  return {
    hold: () => {
      const el = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      held.current = el ? { el, around: el.closest<HTMLElement>('form, section, [role="group"]') } : null;
    },
  };
};
