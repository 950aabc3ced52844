import { useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { Link } from '../ui/link.js';
import { ErrorNote } from '../ui/page.js';
import { CopyButton } from './copy-button.js';
import { describeOutcome, describeSource, describeStatus, webhookLine, type TriggerEvent, type TriggerRule } from './trigger-shapes.js';

// One trigger rule: what it listens to and how that is going, fire it now (a Manual event), switch
// it on or off, edit its name and templates, a new webhook secret (shown once), its recent events
// with the runs they started, delete it after a confirmation. Templates are shown as text.

const enc = encodeURIComponent;

export const TriggerCard = ({ rule, onChange, onDeleted }: { readonly rule: TriggerRule; readonly onChange: (r: TriggerRule) => void; readonly onDeleted: (id: string) => void }) => {
  const r = rule;
  const key = `t-${r.id}`;
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState<{ text: string; runId?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [events, setEvents] = useState<TriggerEvent[] | null>(null);

  const act = async (call: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try { await call(); } catch (err) { setError(err as ApiError); } finally { setBusy(false); }
  };
  const patch = (body: Record<string, unknown>, text: string) => act(async () => {
    onChange(await api<TriggerRule>(`triggers/${enc(r.id)}`, { method: 'PATCH', body }));
    setDone({ text });
  });
  const loadEvents = () => act(async () => setEvents((await api<{ events: TriggerEvent[] }>(`triggers/${enc(r.id)}/events?limit=20`)).events));

  return (
    <section class="panel" aria-labelledby={`${key}-h`} data-rule={r.id}>
      <div class="row">
        <h2 id={`${key}-h`} class="card-title grow">{r.name}</h2>
        <span class="badge">{r.enabled ? 'on' : 'off'}</span>
      </div>
      <p class="muted about">{describeSource(r.source)} · project {r.project}{r.workflow ? ` · workflow ${r.workflow}` : ''}</p>
      <p class={r.status._tag === 'Failing' ? 'warning' : 'muted'} data-status={r.status._tag}>Status: {describeStatus(r.status)}</p>
      <p class="goal">Goal: {r.goal}</p>
      {r.title && <p class="goal">Title: {r.title}</p>}
      {r.lastEvent && <p class="muted">Last event: {r.lastEvent.summary || r.lastEvent.kind} ({new Date(r.lastEvent.at).toLocaleString()})</p>}
      {r.notes.length > 0 && <ul class="plain muted" aria-label={`Notes on ${r.name}`}>{r.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>}
      {r.secret && (
        <div class="panel" role="group" aria-labelledby={`${key}-secret`}>
          <p id={`${key}-secret`} class="warning">The webhook secret, shown this once: keep it now.</p>
          <div class="copyline"><code class="line" data-secret>{r.secret}</code><CopyButton text={r.secret} what="the secret" /></div>
          <pre class="line">{webhookLine(location.origin, r, r.secret)}</pre>
        </div>
      )}
      <form class="inline-form" aria-label={`Fire ${r.name}`} onSubmit={(e) => {
        e.preventDefault();
        const summary = String(new FormData(e.currentTarget).get('summary') ?? '').trim();
        void act(async () => {
          const f = await api<{ runId: string }>(`triggers/${enc(r.id)}/fire`, { body: summary ? { summary } : {} });
          setDone({ text: 'Fired: run started.', runId: f.runId });
          if (events) setEvents((await api<{ events: TriggerEvent[] }>(`triggers/${enc(r.id)}/events?limit=20`)).events);
        });
      }}>
        <label for={`${key}-summary`}>Event summary</label>
        <input id={`${key}-summary`} name="summary" placeholder="(fired by hand)" />
        <button type="submit" disabled={busy}>Fire now</button>
      </form>
      <div class="row">
        <button type="button" disabled={busy} onClick={() => void patch({ enabled: !r.enabled }, r.enabled ? 'Switched off.' : 'Switched on.')}>{r.enabled ? 'Switch off' : 'Switch on'}</button>
        <button type="button" disabled={busy} aria-expanded={editing} onClick={() => setEditing(!editing)}>Edit</button>
        {r.source._tag === 'Webhook' && <button type="button" disabled={busy} onClick={() => void patch({ newSecret: true }, 'A new secret is in place; the old one is refused.')}>New secret</button>}
        <button type="button" disabled={busy} onClick={() => void loadEvents()}>{events ? 'Refresh events' : 'Show events'}</button>
        {!confirming && <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>Delete</button>}
      </div>
      {confirming && (
        <div class="row" role="group" aria-label={`Confirm deleting ${r.name}`}>
          <span>Delete this rule? Runs it started stay.</span>
          <button type="button" class="danger" onClick={() => void act(async () => { await api(`triggers/${enc(r.id)}`, { method: 'DELETE' }); onDeleted(r.id); })}>Delete for good</button>
          <button type="button" onClick={() => setConfirming(false)}>Keep it</button>
        </div>
      )}
      {editing && (
        <form class="stack" aria-label={`Edit ${r.name}`} onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const title = String(f.get('title') ?? '').trim();
          void patch({ name: String(f.get('name') ?? '').trim(), goal: String(f.get('goal') ?? ''), ...(title ? { title } : {}) }, 'Saved.').then(() => setEditing(false));
        }}>
          <div class="field"><label for={`${key}-name`}>Rule name</label><input id={`${key}-name`} name="name" required defaultValue={r.name} /></div>
          <div class="field"><label for={`${key}-goal`}>Goal (template)</label><textarea id={`${key}-goal`} name="goal" rows={3} required defaultValue={r.goal} /></div>
          <div class="field"><label for={`${key}-title`}>Title (template)</label><input id={`${key}-title`} name="title" defaultValue={r.title ?? ''} /></div>
          <button type="submit" disabled={busy}>Save rule</button>
        </form>
      )}
      <ErrorNote error={error} />
      <p class="note" role="status">{done?.text}{done?.runId && <> <Link href={`/runs/${enc(done.runId)}`}>Open the run</Link></>}</p>
      {events && (events.length === 0 ? <p class="muted">No event yet.</p> : (
        <ol class="plain" aria-label={`Events of ${r.name}, newest first`}>
          {events.map((ev) => (
            <li key={ev.id} class="row" data-event={ev.id}>
              <span class="grow">{ev.summary || ev.kind}</span>
              <span>{describeOutcome(ev.outcome)}</span>
              {ev.outcome?.runId && <Link href={`/runs/${enc(ev.outcome.runId)}`}>run</Link>}
              <time class="muted" dateTime={ev.at}>{new Date(ev.at).toLocaleString()}</time>
            </li>
          ))}
        </ol>
      ))}
    </section>
  );
};
