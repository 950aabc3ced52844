import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { CopyButton } from '../components/copy-button.js';
import type { MadeToken } from './shapes.js';

// "Add a machine", as GitHub's self-hosted runners page does it: name the machine, and the command
// line to run there is shown once, with its join token, and a copy button. The token is kept
// nowhere on this machine (docs/workers.md): closing the panel loses it, and a new one is made.

export const joinCommand = (made: MadeToken): string => `svc worker join ${made.hub ?? 'nats://THIS-MACHINE:4222'} ${made.token}`;

const Made = ({ made, onDone }: { readonly made: MadeToken; readonly onDone: () => void }) => {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const loopback = made.hub?.includes('127.0.0.1') ?? false;
  return (
    <div class="join-command" data-worker={made.worker.workerId}>
      <h2 ref={heading} tabIndex={-1} class="card-title">Run this on {made.worker.name}</h2>
      <p>It holds the machine's join token, <strong>shown this once</strong>: copy it now. svc installed there, with the agent CLIs logged in:</p>
      <pre class="line"><code>{joinCommand(made)}</code></pre>
      <div class="row"><CopyButton text={joinCommand(made)} what="the join command" /></div>
      {loopback ? <p class="muted">This machine's NATS listens on loopback only: reach it through an SSH tunnel from the other machine, or start <code>svc serve</code> with <code>SVC_NATS_LISTEN=&lt;an address it reaches&gt;:4222</code> (then the line is TLS); see docs/second-machine.md.</p> : null}
      {made.hubProblem ? <p class="warning" role="status">The hub has not started here yet: {made.hubProblem}</p> : null}
      <button type="button" onClick={onDone}>Done</button>
    </div>
  );
};

export const AddMachine = ({ open, onOpen, onMade }: { readonly open: boolean; readonly onOpen: (on: boolean) => void; readonly onMade: () => void }) => {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<MadeToken | null>(null);
  if (!open) return <button type="button" onClick={() => onOpen(true)}>Add a machine</button>;
  if (made) return <section class="panel" aria-label="Add a machine"><Made made={made} onDone={() => { setMade(null); setName(''); onOpen(false); }} /></section>;
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      setMade(await api<MadeToken>('workers/tokens', { body: { name: name.trim() } }));
      onMade();
    } catch (e) {
      setError(e instanceof ApiError ? e.detail : String(e));
    }
    setBusy(false);
  };
  return (
    <section class="panel" aria-label="Add a machine">
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <label for="machine-name">Name of the machine</label>
        <input id="machine-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={64} placeholder="desktop" autoFocus />
        <button type="submit" disabled={busy || name.trim() === ''}>Make a join command</button>
        <button type="button" onClick={() => onOpen(false)}>Cancel</button>
      </form>
      {error ? <p class="error" role="alert">{error}</p> : null}
    </section>
  );
};
