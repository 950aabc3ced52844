import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../ui/page.js';
import { markPicked, picked, type Pick, type Picked } from './diff-picks.js';
import { revealFile } from './reveal-file.js';
import type { ReviewFile } from './review.js';
import type { threadsOf } from './review-threads.js';
import { clearThreads, placeThreads, type Mounts } from './row-mounts.js';

// One folder's diff, drawn by diff2html (its own chunk, loaded with the tab): the review threads
// placed under their lines, the picked lines marked, a click, shift-click or drag on line numbers
// picking lines for a comment, and each file's block named by its path for the file tree and keys.

export type DiffFolder = { readonly folder: string; readonly base: string } & ({ readonly diff: string; readonly truncated: boolean } | { readonly detail: string });

type D2H = typeof import('./diff2html.js');
let d2h: Promise<D2H> | null = null;
export const loadD2h = (): Promise<D2H> => (d2h ??= import('./diff2html.js'));

type Threads = ReturnType<typeof threadsOf>;

export const Diff = ({ f, files, pick, chosen, threads }: { readonly f: DiffFolder; readonly files: readonly ReviewFile[]; readonly pick: Pick; readonly chosen: Picked | null; readonly threads: Threads }) => {
  const box = useRef<HTMLDivElement>(null);
  const mounts = useRef<Mounts>(new Map());
  const [failed, setFailed] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(0);
  const dragFrom = useRef<{ file: number; side: 'new' | 'old'; line: number } | null>(null);
  useEffect(() => { if (box.current) markPicked(box.current, chosen); }, [chosen?.file, chosen?.side, chosen?.from, chosen?.to, drawn]);
  // every render: the threads carry the page's current draft and handlers
  useEffect(() => { if (box.current) placeThreads(box.current, mounts.current, threads); });
  // each file's block names its path, for the file tree and the keys that move between files
  useEffect(() => { box.current?.querySelectorAll<HTMLElement>('.d2h-file-wrapper').forEach((w, i) => { if (files[i]) w.dataset['path'] = files[i].path; }); }, [drawn, files]);
  useEffect(() => () => clearThreads(mounts.current), []);
  const text = 'diff' in f ? f.diff : '';
  useEffect(() => {
    if (!text || !box.current) return;
    let live = true;
    loadD2h().then((m) => {
      if (!live || !box.current) return;
      clearThreads(mounts.current);
      m.drawDiff(box.current, text, { fileList: false });
      // Each file's block scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it.
      for (const el of box.current.querySelectorAll('.d2h-file-diff')) el.setAttribute('tabindex', '0');
      setDrawn((n) => n + 1);
      requestAnimationFrame(() => { if (box.current) revealFile(box.current); });
    }, (e: Error) => { if (live) setFailed(e.message); });
    return () => { live = false; };
  }, [text]);
  if ('detail' in f) return <p class="error">{f.detail}</p>;
  if (failed) return <ErrorNote error={`The diff could not be shown: ${failed}`} />;
  return (
    <>
      {f.diff ? null : <p class="muted">No changes against the base.</p>}
      {f.truncated ? <p class="muted">The diff is too large to show whole; later files are left out.</p> : null}
      {/* a click on a line number opens a comment box under it; a drag or shift-click takes a range */}
      <div class="diff" ref={box} data-drawn={drawn}
        onMouseDown={(e) => { dragFrom.current = null; if (box.current) picked(box.current, e, (file, side, line) => { dragFrom.current = { file, side, line }; }); }}
        onMouseUp={(e) => {
          const from = dragFrom.current;
          if (!from || !box.current) return;
          picked(box.current, e, (file, side, line) => { if (file === from.file && side === from.side && line !== from.line) pick(file, side, from.line, false, line); });
        }}
        onClick={(e) => box.current && picked(box.current, e, pick)} />
    </>
  );
};

