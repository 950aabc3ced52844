import { parse } from 'diff2html';

// Which lines a unified diff shows, per file and side, with their text: what a review comment may
// point at, the code it quotes, and (read again later) whether that code has changed since.
// diff2html's parser reads the diff (the app draws the same text with it, so both agree on lines).

export type Side = 'new' | 'old';

export interface DiffFileLines {
  /** the file's path in the diff: its new name, or its old one when it was deleted */
  readonly path: string;
  readonly new: ReadonlyMap<number, string>;
  readonly old: ReadonlyMap<number, string>;
}

const nameOf = (f: { oldName: string; newName: string }): string => (f.newName === '/dev/null' ? f.oldName : f.newName);

export const diffLines = (diff: string): DiffFileLines[] =>
  parse(diff).map((f) => {
    const added = new Map<number, string>();
    const removed = new Map<number, string>();
    for (const b of f.blocks) {
      for (const l of b.lines) {
        // content keeps the diff's one-character prefix (+, - or space)
        const text = l.content.slice(1);
        if (l.newNumber !== undefined) added.set(l.newNumber, text);
        if (l.oldNumber !== undefined) removed.set(l.oldNumber, text);
      }
    }
    return { path: nameOf(f), new: added, old: removed };
  });

/** the lines from..to on one side, or the first line number the diff does not show */
export const quoteOf = (f: DiffFileLines, side: Side, from: number, to: number): { quote: string } | { missing: number } => {
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const text = f[side].get(n);
    if (text === undefined) return { missing: n };
    out.push(text);
  }
  return { quote: out.join('\n') };
};
