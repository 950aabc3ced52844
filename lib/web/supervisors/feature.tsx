import { useState } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import { write } from './write.js';

// The Supervisors setting: the whole feature on or off, with what that means in plain words.

export const FeatureSwitch = ({ enabled, onChange }: { readonly enabled: boolean | undefined; readonly onChange: () => Promise<void> }) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState('');
  // what was asked for, shown at once (the setting is read again once it is recorded)
  const [want, setWant] = useState<boolean | null>(null);
  const on = want ?? enabled;

  const flip = async (next: boolean) => {
    setBusy(true);
    setError(null);
    setDone('');
    setWant(next);
    try {
      await write('settings', { method: 'PUT', body: { _tag: 'Supervisors', enabled: next } });
      await onChange();
      setDone(next ? 'Supervisors are on.' : 'Supervisors are off.');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setWant(null);
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="sup-feature">
      <h2 id="sup-feature" class="card-title">The supervisor feature</h2>
      <p class="about">
        A supervisor is an agent that watches the runs it owns and steers them for you (answers a question, pauses, starts or
        archives runs) under the rules you set below. There is one global supervisor and at most one per project; a run belongs
        to its project's supervisor, else to the global one. New supervisors ask you first before every action.
      </p>
      <div class="feature">
        <label class="check">
          <input type="checkbox" role="switch" checked={on === true} disabled={busy || enabled === undefined}
            aria-describedby="sup-feature-state" onChange={(e) => void flip(e.currentTarget.checked)} />
          Supervisors on
        </label>
        <span id="sup-feature-state" class="muted">
          {on === undefined ? '' : on ? 'On: supervisors are woken and may act within their settings.'
            : 'Off: no supervisor is woken or acts, and every supervisor key is refused. Messages you send wait.'}
        </span>
      </div>
      <ErrorNote error={error} />
      <p class="note" role="status">{done}</p>
    </section>
  );
};
