import { useEffect, useState } from 'preact/hooks';
import type { ReviewFile } from './review.js';

type DiffFolder = { readonly folder: string } & ({ readonly diff: string } | { readonly detail: string });

// Picking lines of the drawn diff for a review comment (review.tsx): which file, side and line a
// click on a line number means, marking the picked rows, and the files a comment can point at.

/** `to`: the other end of a range dragged over */
export type Pick = (file: number, side: 'new' | 'old', line: number, extend: boolean, to?: number) => void;

// A click in a line-number cell: which file (its block's place in the drawing), which side and line.
export const picked = (box: HTMLElement, e: MouseEvent, pick: Pick): void => {
  const cell = (e.target as HTMLElement).closest('.d2h-code-linenumber');
  const wrapper = cell?.closest('.d2h-file-wrapper');
  if (!cell || !wrapper) return;
  const oldN = cell.querySelector('.line-num1')?.textContent?.trim() ?? '';
  const newN = cell.querySelector('.line-num2')?.textContent?.trim() ?? '';
  const onOld = (e.target as HTMLElement).closest('.line-num1') !== null || newN === '';
  const n = Number(onOld ? oldN : newN);
  if (!Number.isInteger(n) || n < 1) return;
  pick([...box.querySelectorAll('.d2h-file-wrapper')].indexOf(wrapper), onOld ? 'old' : 'new', n, e.shiftKey);
};

/** the lines picked for a comment, in one file of this folder's drawing */
export interface Picked { readonly file: number; readonly side: 'new' | 'old'; readonly from: number; readonly to: number }

const markRows = (box: HTMLElement, cls: string, marks: readonly Picked[]): void => {
  for (const el of box.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
  const wrappers = box.querySelectorAll('.d2h-file-wrapper');
  for (const p of marks) {
    const wrapper = wrappers[p.file];
    if (!wrapper) continue;
    for (const cell of wrapper.querySelectorAll(`.d2h-code-linenumber .${p.side === 'new' ? 'line-num2' : 'line-num1'}`)) {
      const n = Number(cell.textContent?.trim());
      if (n >= p.from && n <= p.to) cell.closest('tr')?.classList.add(cls);
    }
  }
};

// Marks the picked rows in the drawn diff, so a click shows at once which lines the comment is on.
export const markPicked = (box: HTMLElement, p: Picked | null): void => markRows(box, 'picked', p ? [p] : []);


// The files a comment can point at, per folder in drawing order; with several folders a path names its folder first.
export interface ReviewFiles { readonly all: readonly ReviewFile[]; readonly byFolder: ReadonlyMap<string, readonly ReviewFile[]> }

/** `load`: the diff2html chunk, whose parser names the files as the server does */
export const useReviewFiles = (diffs: readonly DiffFolder[] | null, load: () => Promise<{ filesOf(diff: string): readonly ReviewFile[] }>): ReviewFiles => {
  const [files, setFiles] = useState<ReviewFiles>({ all: [], byFolder: new Map() });
  useEffect(() => {
    if (!diffs) return;
    let live = true;
    load().then((m) => {
      if (!live) return;
      const byFolder = new Map(diffs.map((d) => [d.folder, 'diff' in d
        ? m.filesOf(d.diff).map((f) => ({ ...f, path: diffs.length > 1 ? `${d.folder}/${f.path}` : f.path }))
        : []] as const));
      setFiles({ all: [...byFolder.values()].flat(), byFolder });
    }, () => undefined);
    return () => { live = false; };
  }, [diffs]);
  return files;
};
