import { useState } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { CopyButton } from '../components/copy-button.js';
import { ErrorNote } from '../ui/page.js';
import type { SupervisorView } from './shapes.js';
import { write } from './write.js';

// A supervisor's key: hidden until asked, a copy button, and Regenerate behind a warning (the old
// key is refused at once, so anything configured with it stops working).

export const KeyPanel = ({ view, onChange }: { readonly view: SupervisorView; readonly onChange: (v: SupervisorView) => void }) => {
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState('');
  const key = `key-${view.id}`;

  const regenerate = async () => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      onChange(await write<SupervisorView>(`supervisors/${encodeURIComponent(view.id)}/key`, { body: {} }));
      setConfirming(false);
      setDone('A new key is in place; the old one is refused from now on.');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby={`${key}-title`}>
      <h3 id={`${key}-title`}>Key</h3>
      <p class="muted about">A program acts as this supervisor at <code>/mcp?supervisor=&lt;key&gt;</code> (with the endpoint's bearer token). Keep it secret.</p>
      <div class="copyline">
        <code class="key" data-key-shown={shown ? 'yes' : 'no'}>{shown ? view.key : '•'.repeat(24)}</code>
        <button type="button" class="small" aria-pressed={shown} onClick={() => setShown(!shown)}>{shown ? 'Hide key' : 'Show key'}</button>
        <CopyButton text={view.key} what="key" />
      </div>
      {confirming ? (
        <div class="confirm" role="group" aria-labelledby={`${key}-warn`}>
          <p id={`${key}-warn`} class="warning">A new key replaces this one at once: anything using the old key (its running agent, a tool you configured) is refused until it gets the new one.</p>
          <div class="row">
            <button type="button" class="danger" disabled={busy} onClick={() => void regenerate()}>Yes, make a new key</button>
            <button type="button" disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>
          </div>
        </div>
      ) : <button type="button" onClick={() => { setConfirming(true); setDone(''); }}>Regenerate key…</button>}
      <ErrorNote error={error} />
      <p class="note" role="status">{done}</p>
    </section>
  );
};
