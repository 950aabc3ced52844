import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-slim.js';
import { parse } from 'diff2html/lib-esm/diff-parser.js';
import type { ColorSchemeType } from 'diff2html/lib/types.js';
import { shownTheme } from '../theme.js';
import css from 'diff2html/bundles/css/diff2html.min.css' with { type: 'text' };
import hljsDark from 'highlight.js/styles/github-dark-dimmed.min.css' with { type: 'text' };
import hljsLight from 'highlight.js/styles/github.min.css' with { type: 'text' };

// diff2html (with highlight.js for the languages it knows, by file name) and their stylesheets, in
// their own chunk, loaded with the Worktree tab. The CSS is bundled as text and added to the
// document once: svc serves everything itself, no CDN. diff2html escapes the diff's text, and
// highlight.js escapes what it colours.

let styled = false;
const style = (): void => {
  if (styled) return;
  styled = true;
  const el = document.createElement('style');
  el.dataset['from'] = 'diff2html';
  // highlight.js colours for the light theme, and the dark ones nested under the dark theme (chosen,
  // or the system's when none is chosen), so the diff follows a theme switch without a redraw.
  // :where() keeps the nested rules as specific as the stylesheet's own, so run.css still adjusts them.
  el.textContent = `${css}\n${hljsLight}\n:where(:root[data-theme="dark"]) { ${hljsDark} }\n`
    + `@media (prefers-color-scheme: dark) { :where(:root:not([data-theme])) { ${hljsDark} } }`;
  document.head.append(el);
};

/** Draws the diff into `target`, one block per file, syntax coloured. `fileList: false` leaves out
 * the list of files above (Compare draws one file per box). */
export const drawDiff = (target: HTMLElement, diff: string, o: { readonly fileList?: boolean } = {}): void => {
  style();
  new Diff2HtmlUI(target, diff, {
    drawFileList: o.fileList ?? true, fileListStartVisible: true, fileContentToggle: false, outputFormat: 'line-by-line', matching: 'none',
    colorScheme: shownTheme() as ColorSchemeType, highlight: true, synchronisedScroll: false,
  }).draw();
};

/** The diff's files in the order they are drawn, each with the lines it shows per side: what a
 * review comment can point at (the server reads the diff with the same parser). */
export interface DiffFileShown { readonly path: string; readonly new: readonly number[]; readonly old: readonly number[]; readonly added: number; readonly deleted: number }

export const filesOf = (diff: string): DiffFileShown[] =>
  parse(diff).map((f) => ({
    path: f.newName === '/dev/null' ? f.oldName : f.newName,
    new: f.blocks.flatMap((b) => b.lines.flatMap((l) => (l.newNumber !== undefined ? [l.newNumber] : []))),
    old: f.blocks.flatMap((b) => b.lines.flatMap((l) => (l.oldNumber !== undefined ? [l.oldNumber] : []))),
    added: f.addedLines,
    deleted: f.deletedLines,
  }));
