import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useLoad } from '../components/use-load.js';
import type { BoardRow } from '../data/runs-index.js';
import { navigate } from '../router.js';
import { compareHref } from './group-card.js';
import { RunPicker } from './run-picker.js';

// The run page's "Compare with…": another run of the same project (an attempt, a fork, anything),
// opened side by side on the Compare page.

export const CompareWith = ({ runId, project }: { readonly runId: string; readonly project: string }) => {
  const [open, setOpen] = useState(false);
  const [other, setOther] = useState('');
  const board = useLoad(open ? () => api<BoardRow[]>('board?archived=true') : null, [open]);
  const runs = (board.data ?? []).filter((r) => r.project === project && r.runId !== runId);
  // The button pressed is replaced by the form: focus moves into it (and back to the button on Cancel)
  const form = useRef<HTMLFormElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const back = useRef(false);
  useEffect(() => {
    if (open) form.current?.querySelector<HTMLElement>('select, button')?.focus();
    else if (back.current) button.current?.focus();
  }, [open]);
  const close = () => { back.current = true; setOpen(false); setOther(''); };
  if (!open) return <button type="button" class="small" ref={button} onClick={() => setOpen(true)}>Compare with…</button>;
  return (
    <form ref={form} class="compare-with" aria-label="Compare with another run" onSubmit={(e) => { e.preventDefault(); if (other) navigate(compareHref(runId, other)); }}>
      {board.data && runs.length === 0 ? <p class="muted">No other run of this project to compare with.</p> : (
        <RunPicker id="compare-with" label="Compare with" runs={runs} value={other} onChange={setOther} />
      )}
      <span class="compare-with-actions">
        <button type="submit" class="small" disabled={!other}>Compare</button>
        <button type="button" class="small" onClick={close}>Cancel</button>
      </span>
    </form>
  );
};
