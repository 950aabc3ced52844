import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import { EditorState, type Text } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { type Pinned, where } from './diagnostics.js';

// The workflow text editor: CodeMirror 6 with line numbers and the server's diagnostics marked at
// their line (gutter marker, underline, message on hover or Ctrl-Shift-M). It is imported
// dynamically by the editor component, so CodeMirror is fetched only when someone edits a workflow.
// Tab is left to move focus (no indent-with-Tab), so keyboard users are never trapped in the box.

export interface CodeEditor {
  showDiagnostics(pinned: readonly Pinned[]): void;
  /** puts the caret on a 0-based line, selects it and focuses the editor */
  focusLine(line: number): void;
  destroy(): void;
}

export interface CodeEditorOptions {
  readonly doc: string;
  readonly labelledBy: string;
  readonly describedBy: string;
  readonly onChange: (text: string) => void;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The attribute's name on its line when it is there, else the whole line.
const rangeOf = (doc: Text, p: Pinned): { from: number; to: number } => {
  const line = doc.line(p.line! + 1);
  const m = p.d.attribute ? new RegExp(`(^|[\\s,\\[])("?${escape(p.d.attribute)}"?)\\s*=`).exec(line.text) : null;
  if (!m) return { from: line.from, to: Math.max(line.from, line.to) };
  const from = line.from + m.index + m[1]!.length;
  return { from, to: from + m[2]!.length };
};

const toLint = (doc: Text, pinned: readonly Pinned[]): LintDiagnostic[] =>
  pinned
    .filter((p) => p.line !== null && p.line < doc.lines)
    .map((p) => ({ ...rangeOf(doc, p), severity: p.kind, message: `${where(p.d) ? `${where(p.d)}: ` : ''}${p.d.message}` }));

// Colours come from the app's variables, so the editor follows the light and dark themes.
const theme = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--code-bg)', border: '1px solid var(--field-line)', borderRadius: '6px', fontSize: '.85rem' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', minHeight: '18rem', maxHeight: '36rem' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)', color: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--line)' },
});

export const createCodeEditor = (parent: HTMLElement, o: CodeEditorOptions): CodeEditor => {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: o.doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), history(), drawSelection(), lintGutter(),
        EditorView.lineWrapping, theme,
        keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap]),
        EditorView.contentAttributes.of({ 'aria-labelledby': o.labelledBy, 'aria-describedby': o.describedBy, spellcheck: 'false' }),
        EditorView.updateListener.of((u) => { if (u.docChanged) o.onChange(u.state.doc.toString()); }),
      ],
    }),
  });
  return {
    showDiagnostics: (pinned) => view.dispatch(setDiagnostics(view.state, toLint(view.state.doc, pinned))),
    focusLine: (line) => {
      const l = view.state.doc.line(Math.min(line + 1, view.state.doc.lines));
      view.dispatch({ selection: { anchor: l.from, head: l.to }, scrollIntoView: true });
      view.focus();
    },
    destroy: () => view.destroy(),
  };
};
