import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../ui/page.js';

// One file's diff in one run, drawn as the run page draws its diff (run/diff2html.ts, loaded with
// the first one shown), or a plain note when the run left the file as the base has it.

type D2H = typeof import('../run/diff2html.js');
let d2h: Promise<D2H> | null = null;
const loadD2h = (): Promise<D2H> => (d2h ??= import('../run/diff2html.js'));

export const FileDiff = ({ diff, label, path }: { readonly diff: string | null; readonly label: string; readonly path: string }) => {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!diff || !box.current) return;
    let live = true;
    loadD2h().then((m) => {
      if (!live || !box.current) return;
      box.current.replaceChildren();
      m.drawDiff(box.current, diff, { fileList: false });
      // a file's block scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it
      for (const el of box.current.querySelectorAll('.d2h-file-diff')) el.setAttribute('tabindex', '0');
    }, (e: Error) => { if (live) setFailed(e.message); });
    return () => { live = false; };
  }, [diff]);
  // Which run a diff is: one above the other on a phone, the page's A and B headings are far away.
  const caption = <p class="compare-caption">{label}</p>;
  if (diff === null) return <div class="compare-one">{caption}<p class="muted compare-nochange">No change to this file.</p></div>;
  if (failed) return <div class="compare-one">{caption}<ErrorNote error={`The diff could not be shown: ${failed}`} /></div>;
  return <div class="compare-one">{caption}<div class="diff compare-diff" ref={box} aria-label={`${label}: diff of ${path}`} role="region" /></div>;
};
