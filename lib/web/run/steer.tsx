import { useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError } from '../api.js';
import { NoteLine, type Note } from './controls.js';
import type { RunData } from './data.js';

// Talking to the run's agent: a message delivered now where the CLI can take it (Resume) or held
// for the next turn (Hold), and a revised goal (the page shows the goal form only while the run's
// detail says `canReviseGoal`, which the server asks of its own rule). The server says whether it was delivered and why
// not; the page shows that as it is.

interface MessageReply { readonly run: RunDetail; readonly delivered: boolean; readonly detail: string | null }

const errorText = (e: unknown) => (e instanceof ApiError ? e.detail : String(e));

export const MessageBox = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const send = async (delivery: 'Resume' | 'Hold') => {
    if (!text.trim()) return;
    setBusy(true);
    setNote(null);
    try {
      const r = await api<MessageReply>(`runs/${encodeURIComponent(run.id)}/messages`, { body: { text, delivery } });
      data.accept(r.run);
      setText('');
      setNote({ kind: 'ok', text: r.delivered ? 'Message delivered.' : `Message held for the next turn${r.detail ? `: ${r.detail}` : '.'}` });
    } catch (e) {
      setNote({ kind: 'error', text: errorText(e) });
    }
    setBusy(false);
  };
  return (
    <form class="panel" aria-labelledby="message-title" onSubmit={(e) => { e.preventDefault(); void send('Resume'); }}>
      <h2 id="message-title">Message the agent</h2>
      <label>Message
        <textarea rows={3} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
      </label>
      <div class="row">
        <button type="submit" disabled={busy || !text.trim()}>Send now</button>
        <button type="button" disabled={busy || !text.trim()} onClick={() => void send('Hold')}>Hold for next turn</button>
      </div>
      <NoteLine note={note} />
    </form>
  );
};

export const GoalForm = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const [goal, setGoal] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const value = goal ?? run.goal;
  const save = async () => {
    setBusy(true);
    setNote(null);
    try {
      const r = await api<{ run: RunDetail }>(`runs/${encodeURIComponent(run.id)}/goal`, { body: { goal: value, ...(reason.trim() ? { reason } : {}) } });
      data.accept(r.run);
      setGoal(null);
      setReason('');
      setNote({ kind: 'ok', text: 'Goal revised.' });
    } catch (e) {
      setNote({ kind: 'error', text: errorText(e) });
    }
    setBusy(false);
  };
  return (
    <details class="panel">
      <summary>Revise the goal</summary>
      <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label>Goal
          <textarea rows={4} value={value} onInput={(e) => setGoal((e.target as HTMLTextAreaElement).value)} />
        </label>
        <label>Reason (optional)
          <input value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={busy || !value.trim() || value === run.goal}>Save goal</button>
      </form>
      <NoteLine note={note} />
    </details>
  );
};
