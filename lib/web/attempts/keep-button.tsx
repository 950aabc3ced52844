import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import { ConfirmButton } from '../run/confirm.js';
import { KeepKeepingText } from '../run/keeping-text.js';

// "Keep this one": the other attempts of the group are archived (their worktrees go once their
// uncommitted work is kept, their journals stay). It asks first, saying what is kept of each; while
// one is still going the server refuses and says so, and the person may then abort them.

interface Kept { readonly archived: readonly string[] }

/** `nameOf`: how the note names an archived attempt (its agent), else by its run id */
export const KeepButton = ({ runId, label, onKept, nameOf = (id) => id }: {
  readonly runId: string; readonly label: string; readonly onKept: (note: string) => void; readonly nameOf?: (runId: string) => string;
}) => {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<ApiError | null>(null);
  const keep = async (abortOthers: boolean) => {
    setBusy(true);
    setRefused(null);
    try {
      const r = await api<Kept>(`runs/${encodeURIComponent(runId)}/keep`, { body: abortOthers ? { abortOthers: true } : {} });
      onKept(`Kept ${label}; ${r.archived.length ? `archived the others: ${r.archived.map(nameOf).join(', ')}. Their uncommitted work is kept: unarchive one to get its worktree back as it was` : 'nothing else to archive (the others were archived already)'}.`);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setRefused(err);
    } finally {
      setBusy(false);
    }
  };
  const going = refused?.status === 409 && /still going/.test(refused.detail);
  return (
    <div class="keep">
      <ConfirmButton label="Keep this one" ariaLabel={`Keep this one: ${label}`} disabled={busy} yes="Keep this one" no="Not yet"
        question={<KeepKeepingText runId={runId} nameOf={nameOf} />} onConfirm={() => void keep(false)} />
      <ErrorNote error={refused} />
      {going ? <button type="button" class="danger" disabled={busy} onClick={() => void keep(true)}>Abort the others and keep this one</button> : null}
    </div>
  );
};
