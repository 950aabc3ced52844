import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { DiagnosticList, summary } from './diagnostic-list.js';
import { pin } from './diagnostics.js';
import type { Validation } from './shapes.js';
import { ErrorNote } from '../ui/page.js';

// Editing a custom workflow: the text is checked as it is typed (POST .../validation, debounced,
// nothing saved), its diagnostics pinned to their lines; Save stores it (PUT), even with errors,
// so half-done work is not lost. A check overtaken by newer text is cancelled.

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
  const area = useRef<HTMLTextAreaElement>(null);
  const q = project ? `?project=${enc(project)}` : '';

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

  const pick = (line: number) => {
    const el = area.current;
    if (!el) return;
    const lines = el.value.split('\n');
    const start = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
    el.focus();
    el.setSelectionRange(start, start + (lines[line]?.length ?? 0));
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaveError(null);
    try {
      const v = await api<Validation>(`workflows/${enc(name.trim())}${q}`, { method: 'PUT', body: { source } });
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
        <label for="wf-text">Workflow text</label>
        <textarea id="wf-text" ref={area} class="code" rows={18} spellcheck={false} value={source} aria-describedby="wf-check"
          onInput={(e) => setSource(e.currentTarget.value)} />
      </div>
      <p id="wf-check" role="status" class={checked && current ? (checked.v.loads ? 'note' : 'error') : 'muted'}>
        {!name.trim() ? 'Name the workflow to check it.' : checkError ? '' : !checked || !current ? 'Checking…' : summary(checked.v.errors.length, checked.v.warnings.length)}
      </p>
      <ErrorNote error={checkError} />
      <DiagnosticList pinned={pinned} label="Problems in the text" onPick={pick} />
      <ErrorNote error={saveError} />
      <div class="row">
        <button type="submit" disabled={busy || !name.trim()}>Save</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
};
