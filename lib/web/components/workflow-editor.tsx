import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { guardLeaving } from '../router.js';
import type { CodeEditor } from './code-editor.js';
import { DiagnosticList, summary } from './diagnostic-list.js';
import { pin } from './diagnostics.js';
import type { Validation } from './shapes.js';
import { askToDiscard, useUnsavedGuard } from './use-unsaved.js';
import { ErrorNote, Loading } from '../ui/page.js';

// Editing a custom workflow in a code editor (CodeMirror, fetched when the editor opens): the
// text is checked as it is typed (POST .../validation, debounced, nothing saved), its diagnostics
// marked at their lines; Save stores it (PUT), even with errors, so half-done work is not lost. A
// check overtaken by newer text is cancelled. Leaving with unsaved edits asks first.

const enc = encodeURIComponent;
const DEBOUNCE_MS = 350;

export interface EditorProps {
  /** fixed for an existing workflow; null: a new one, named in the editor */
  readonly name: string | null;
  readonly initial: string;
  readonly project: string;
  readonly onSaved: (name: string, v: Validation) => void;
  readonly onCancel: () => void;
}

export const WorkflowEditor = ({ name: fixedName, initial, project, onSaved, onCancel }: EditorProps) => {
  const [name, setName] = useState(fixedName ?? '');
  const [source, setSource] = useState(initial);
  const [checked, setChecked] = useState<{ source: string; v: Validation } | null>(null);
  const [checkError, setCheckError] = useState<ApiError | null>(null);
  const [saveError, setSaveError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const [code, setCode] = useState<CodeEditor | null>(null);
  const [loadError, setLoadError] = useState<Error | null>(null);
  const q = project ? `?project=${enc(project)}` : '';
  const dirty = source !== initial || (fixedName === null && name !== '');
  useUnsavedGuard(dirty);

  useEffect(() => {
    let live = true;
    let made: CodeEditor | null = null;
    import('./code-editor.js').then(
      (m) => { if (live && host.current) setCode(made = m.createCodeEditor(host.current, { doc: initial, labelledBy: 'wf-text-label', describedBy: 'wf-check', onChange: setSource })); },
      (err: Error) => { if (live) setLoadError(err); },
    );
    return () => { live = false; made?.destroy(); };
  }, []);

  useEffect(() => {
    if (!name.trim()) { setChecked(null); setCheckError(null); return; }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api<Validation>(`workflows/${enc(name.trim())}/validation${q}`, { body: { source }, signal: abort.signal }).then(
        (v) => { setChecked({ source, v }); setCheckError(null); },
        (err: ApiError) => { if (err.name !== 'AbortError') { setCheckError(err); setChecked(null); } },
      );
    }, DEBOUNCE_MS);
    return () => { clearTimeout(timer); abort.abort(); };
  }, [name, source, q]);

  const pinned = useMemo(() => (checked ? pin(checked.source, checked.v.errors, checked.v.warnings) : []), [checked]);
  const current = checked?.source === source;
  // Marks that belong to older text would sit on the wrong lines: clear them until the check catches up.
  useEffect(() => { code?.showDiagnostics(current ? pinned : []); }, [code, pinned, current]);
  const pick = (line: number) => code?.focusLine(line);

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaveError(null);
    try {
      const v = await api<Validation>(`workflows/${enc(name.trim())}${q}`, { method: 'PUT', body: { source } });
      guardLeaving(null); // saved: the move onSaved may make is not leaving unsaved work
      onSaved(name.trim(), v);
    } catch (err) {
      setSaveError(err as ApiError);
      setBusy(false);
    }
  };

  return (
    <form class="editor" onSubmit={save} aria-label={fixedName ? `Edit ${fixedName}` : 'New workflow'}>
      {fixedName === null && (
        <div class="field">
          <label for="wf-new-name">Name</label>
          <input id="wf-new-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={64} placeholder="my-workflow" autoComplete="off" />
        </div>
      )}
      <div class="field">
        <label id="wf-text-label">Workflow text</label>
        <div ref={host} class="code-editor" data-dirty={dirty ? 'yes' : 'no'} />
        {!code && (loadError ? <ErrorNote error={`The editor could not be loaded: ${loadError.message}`} /> : <Loading what="the editor" />)}
      </div>
      <p id="wf-check" role="status" class={checked && current ? (checked.v.loads ? 'note' : 'error') : 'muted'}>
        {!name.trim() ? 'Name the workflow to check it.' : checkError ? '' : !checked || !current ? 'Checking…' : summary(checked.v.errors.length, checked.v.warnings.length)}
      </p>
      <ErrorNote error={checkError} />
      <DiagnosticList pinned={pinned} label="Problems in the text" onPick={pick} />
      <ErrorNote error={saveError} />
      <div class="row">
        <button type="submit" disabled={busy || !name.trim()}>Save</button>
        <button type="button" onClick={() => { if (!dirty || askToDiscard()) onCancel(); }}>Cancel</button>
      </div>
    </form>
  );
};
