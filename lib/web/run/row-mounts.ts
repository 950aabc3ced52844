import { render, type VNode } from 'preact';

// Review threads live inside diff2html's drawing: a table row of our own right under the line a
// comment is on, with a Preact tree rendered into it. The rows are kept by key between renders, so
// a comment box being typed in keeps its text and focus while the page reads the run again; a
// redrawn diff drops them all (they are found disconnected) and they are placed anew.

/** where a thread sits: a file block of the drawing, and a line on one side, the file's top, or its header */
export interface Anchor { readonly file: number; readonly side: 'new' | 'old'; readonly line: number | 'top' | 'header' }

interface Mount { readonly row: Element; readonly mount: HTMLElement }
export type Mounts = Map<string, Mount>;

export const anchorKey = (a: Anchor): string => `${a.file}:${typeof a.line === 'number' ? `${a.side}:${a.line}` : a.line}`;

/** the drawn row of `line` on `side` in a file block */
export const rowOf = (wrapper: Element, side: 'new' | 'old', line: number): HTMLTableRowElement | null => {
  for (const cell of wrapper.querySelectorAll(`.d2h-code-linenumber .${side === 'new' ? 'line-num2' : 'line-num1'}`)) {
    if (Number(cell.textContent?.trim()) === line) return cell.closest('tr');
  }
  return null;
};

// the file's header takes a small tree of its own (the whole-file comment button)
const inHeader = (wrapper: Element): Mount | null => {
  const header = wrapper.querySelector('.d2h-file-header');
  if (!header) return null;
  const mount = document.createElement('span');
  mount.className = 'review-file-actions';
  header.append(mount);
  return { row: mount, mount };
};

const newRow = (wrapper: Element, a: Anchor): Mount | null => {
  if (a.line === 'header') return inHeader(wrapper);
  const row = document.createElement('tr');
  row.className = 'review-row';
  const cell = document.createElement('td');
  cell.colSpan = 2;
  const mount = document.createElement('div');
  mount.className = 'review-mount';
  cell.append(mount);
  row.append(cell);
  const at = a.line === 'top' ? null : rowOf(wrapper, a.side, a.line);
  if (!at) {
    // the file's top; also where a comment goes whose line the diff no longer shows
    const body = wrapper.querySelector('tbody');
    if (!body) return null;
    body.prepend(row);
  } else {
    // under the line, after any thread rows already under it
    let last: Element = at;
    while (last.nextElementSibling?.classList.contains('review-row')) last = last.nextElementSibling;
    last.after(row);
  }
  return { row, mount };
};

/** Renders each anchored tree under its line; anchors whose line is not drawn are left out (returned). */
export const placeThreads = (box: HTMLElement, mounts: Mounts, threads: ReadonlyMap<string, { readonly at: Anchor; readonly view: VNode }>): void => {
  for (const [k, m] of mounts) {
    if (threads.has(k) && m.row.isConnected) continue;
    render(null, m.mount);
    m.row.remove();
    mounts.delete(k);
  }
  const wrappers = box.querySelectorAll('.d2h-file-wrapper');
  for (const [k, t] of threads) {
    let m = mounts.get(k);
    if (!m) {
      const wrapper = wrappers[t.at.file];
      const made = wrapper ? newRow(wrapper, t.at) : null;
      if (!made) continue;
      mounts.set(k, (m = made));
    }
    render(t.view, m.mount);
  }
};

export const clearThreads = (mounts: Mounts): void => {
  for (const m of mounts.values()) { render(null, m.mount); m.row.remove(); }
  mounts.clear();
};
