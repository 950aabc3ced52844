import { useEffect, useRef, useState } from 'preact/hooks';
import { navigate, place } from './router.js';

// Keyboard shortcuts, one listener for the whole app. They never fire while the person types (in a
// field, a select, the code editor) or holds Ctrl/Alt/Meta, so browser and system keys stay theirs.
// j/k move a visible selection over the board's rows by focusing each row's link: the focus ring
// shows it, a screen reader reads it, and Enter opens it as any link would.

export const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ['n', 'New run'],
  ['/', 'Search the runs board'],
  ['j / k', 'Next / previous run on the board'],
  ['Enter', 'Open the selected run'],
  ['] / [', 'Next / previous file of a run\'s diff'],
  ['n / p', 'Next / previous comment in a run\'s diff (elsewhere, n is New run)'],
  ['?', 'This list'],
];

const isTyping = (el: EventTarget | null): boolean =>
  el instanceof HTMLElement && (el.isContentEditable || el.matches('input, textarea, select, [role="textbox"]'));

const boardRows = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('main .board-row')];
const rowLink = (row: HTMLElement): HTMLAnchorElement | null => row.querySelector('a[href^="/runs/"]');

const moveSelection = (by: 1 | -1): void => {
  const rows = boardRows();
  if (rows.length === 0) return;
  const at = rows.findIndex((r) => r.dataset['selected'] === 'yes' || r.contains(document.activeElement));
  const next = rows[at < 0 ? (by > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + by))]!;
  for (const r of rows) if (r !== next) delete r.dataset['selected'];
  next.dataset['selected'] = 'yes';
  rowLink(next)?.focus();
  next.scrollIntoView({ block: 'nearest' });
};

// The board renders after its data arrives: look for its search field for a few frames.
const focusSearch = (tries = 120): void => {
  const field = document.querySelector<HTMLInputElement>('main input[type="search"]');
  if (field) return void (field.focus(), field.select());
  if (tries > 0) requestAnimationFrame(() => focusSearch(tries - 1));
};

const openSelected = (): boolean => {
  const row = boardRows().find((r) => r.dataset['selected'] === 'yes');
  const link = row && rowLink(row);
  if (!link) return false;
  navigate(link.getAttribute('href')!);
  return true;
};

// In a run's diff (its Worktree tab): the next or previous file block, or review thread, below or
// above the sticky run header (the target's scroll-margin-top), scrolled to and focused.
const stepTo = (selector: string, by: 1 | -1): void => {
  const els = [...document.querySelectorAll<HTMLElement>(`main ${selector}`)];
  const margin = (el: HTMLElement) => parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
  const next = by > 0
    ? els.find((el) => el.getBoundingClientRect().top > margin(el) + 4)
    : [...els].reverse().find((el) => el.getBoundingClientRect().top < margin(el) - 4);
  if (!next) return;
  next.scrollIntoView({ block: 'start' });
  const target = next.querySelector<HTMLElement>('.d2h-file-diff') ?? next;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
};

const inDiff = (): boolean => document.querySelector('main .diff .d2h-file-wrapper') !== null;

const act = (key: string, openHelp: () => void): boolean => {
  const onBoard = place.value.path === '/';
  if ((key === ']' || key === '[') && inDiff()) return stepTo('.diff .d2h-file-wrapper', key === ']' ? 1 : -1), true;
  if ((key === 'n' || key === 'p') && inDiff()) return stepTo('.review-thread', key === 'n' ? 1 : -1), true;
  if (key === 'n') return navigate('/new'), true;
  if (key === '?') return openHelp(), true;
  if (key === '/') {
    if (!onBoard) navigate('/');
    return focusSearch(), true;
  }
  if (onBoard && (key === 'j' || key === 'k')) return moveSelection(key === 'j' ? 1 : -1), true;
  // Enter on a focused link or button is theirs; here it only opens the selection from elsewhere.
  if (onBoard && key === 'Enter' && !(document.activeElement instanceof HTMLAnchorElement || document.activeElement instanceof HTMLButtonElement)) return openSelected();
  return false;
};

export const useShortcuts = (): { readonly help: boolean; readonly closeHelp: () => void } => {
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (isTyping(e.target) || document.querySelector('dialog[open]')) return;
      if (act(e.key, () => setHelp(true))) e.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  return { help, closeHelp: () => setHelp(false) };
};

/** The list `?` opens, as a modal dialog: Escape or Close shuts it and focus goes back. */
export const ShortcutsHelp = ({ onClose }: { readonly onClose: () => void }) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => { ref.current?.showModal(); }, []);
  return (
    <dialog ref={ref} class="shortcuts" aria-labelledby="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title" class="card-title">Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map(([k, what]) => <div key={k}><dt><kbd>{k}</kbd></dt><dd>{what}</dd></div>)}
      </dl>
      <p class="muted about">Not while typing in a field.</p>
      <form method="dialog"><button type="submit" autoFocus>Close</button></form>
    </dialog>
  );
};
