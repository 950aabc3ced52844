import { useState } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { Link } from '../ui/link.js';
import { ErrorNote } from '../ui/page.js';
import type { ApprovalCard } from './shapes.js';
import { write } from './write.js';

// Approval cards (AskFirst): open ones first, each with its call, its reason and Approve / Deny
// with an optional note; decided ones with their outcome (Applied, Stale, Refused, Denied) and
// what came of it. A decision's answer (the card as it now stands) replaces the card at once.

const enc = encodeURIComponent;

const Args = ({ args }: { readonly args: Readonly<Record<string, unknown>> }) => {
  const rows = Object.entries(args).filter(([k]) => k !== 'reason');
  if (rows.length === 0) return null;
  return (
    <dl class="card-args">
      {rows.map(([k, v]) => [<dt key={`${k}-k`}>{k}</dt>, <dd key={`${k}-v`}>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>])}
    </dl>
  );
};

const Card = ({ id, card, onDecided }: { readonly id: string; readonly card: ApprovalCard; readonly onDecided: (c: ApprovalCard) => void }) => {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const key = `card-${id}-${card.card}`;
  const d = card.decided;

  const decide = async (decision: 'Approve' | 'Deny') => {
    setBusy(true);
    setError(null);
    try {
      onDecided(await write<ApprovalCard>(`supervisors/${enc(id)}/approvals/${enc(card.card)}`, { body: { decision, ...(note.trim() ? { note } : {}) } }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class={`approval ${d ? 'decided' : 'open'}`} data-card={card.card}>
      <div class="row">
        <h4 id={`${key}-title`} class="grow">{card.tool}{card.run ? <> on run <Link href={`/runs/${enc(card.run)}`}>{card.run}</Link></> : null}</h4>
        {d ? <span class={`badge r-${d.result}`}>{d.result}</span> : <span class="badge r-open">Waiting for you</span>}
      </div>
      <p class="card-reason"><span class="muted">Reason: </span>{card.reason}</p>
      <Args args={card.args} />
      <p class="muted small-print">Asked {new Date(card.requestedAt).toLocaleString()} · card {card.card}</p>
      {d ? (
        <div class="card-outcome">
          <p><strong>{d.decision === 'Approve' ? 'Approved' : 'Denied'}</strong>{d.sender ? ` by ${d.sender}` : ''}, {new Date(d.at).toLocaleString()}: {d.detail}</p>
          {d.note ? <p><span class="muted">Note: </span>{d.note}</p> : null}
        </div>
      ) : (
        <form class="card-decide" onSubmit={(e) => e.preventDefault()}>
          <label for={`${key}-note`}>Note (optional)</label>
          <input id={`${key}-note`} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          <div class="row">
            <button type="button" disabled={busy} onClick={() => void decide('Approve')}>Approve</button>
            <button type="button" class="danger" disabled={busy} onClick={() => void decide('Deny')}>Deny</button>
          </div>
          <ErrorNote error={error} />
        </form>
      )}
    </li>
  );
};

export const Approvals = ({ id, cards, error, onDecided }: {
  readonly id: string;
  readonly cards: readonly ApprovalCard[] | undefined;
  readonly error: ApiError | null;
  readonly onDecided: (c: ApprovalCard) => void;
}) => {
  const open = cards?.filter((c) => !c.decided).length ?? 0;
  return (
    <section class="panel" aria-labelledby={`approvals-${id}`}>
      <h3 id={`approvals-${id}`}>Approvals {cards ? <span class="muted">({open} open)</span> : null}</h3>
      <ErrorNote error={error} />
      {!cards ? <p class="muted">Loading approvals…</p> : cards.length === 0
        ? <p class="muted">No card yet. An action set to Ask first posts a card here and waits for you.</p>
        : <ul class="plain approvals">{cards.map((c) => <Card key={c.card} id={id} card={c} onDecided={onDecided} />)}</ul>}
    </section>
  );
};
