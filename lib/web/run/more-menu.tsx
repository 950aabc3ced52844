import { useEffect, useRef, useState } from 'preact/hooks';

// The run's rare actions (Export, Restart) behind one button, as a menu button after the WAI-ARIA
// pattern: the button says whether the menu is open (aria-expanded), the menu's items take the
// arrow keys, Home and End; Escape, Tab or a click elsewhere closes it and focus goes back.

export interface MenuItem { readonly label: string; readonly run: () => void }

export const MoreMenu = ({ label, items }: { readonly label: string; readonly items: readonly MenuItem[] }) => {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const itemEls = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  const close = (refocus: boolean) => { setOpen(false); if (refocus) button.current?.focus(); };
  useEffect(() => {
    if (!open) return;
    itemEls()[0]?.focus();
    const away = (e: MouseEvent) => { if (!menu.current?.contains(e.target as Node) && e.target !== button.current) close(false); };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);
  if (items.length === 0) return null;
  const onKey = (e: KeyboardEvent) => {
    const els = itemEls();
    const at = els.indexOf(document.activeElement as HTMLButtonElement);
    const to = e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? els.length - 1 : null;
    if (to !== null) { e.preventDefault(); els[(to + els.length) % els.length]?.focus(); return; }
    if (e.key === 'Escape') { e.preventDefault(); close(true); }
    if (e.key === 'Tab') close(false);
  };
  return (
    <span class="more-menu">
      <button type="button" ref={button} aria-haspopup="menu" aria-expanded={open} aria-controls="run-more-menu" onClick={() => setOpen(!open)}
        onKeyDown={(e) => { if (e.key === 'ArrowDown' && !open) { e.preventDefault(); setOpen(true); } }}>{label} <span aria-hidden="true">▾</span></button>
      {open ? (
        <ul role="menu" id="run-more-menu" aria-label={label} ref={menu} onKeyDown={onKey}>
          {items.map((it) => (
            <li role="none" key={it.label}>
              <button type="button" role="menuitem" tabIndex={-1} onClick={() => { close(true); it.run(); }}>{it.label}</button>
            </li>
          ))}
        </ul>
      ) : null}
    </span>
  );
};
