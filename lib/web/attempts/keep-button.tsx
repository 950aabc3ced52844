import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { ErrorNote } from '../ui/page.js';

// "Keep this one": the other attempts of the group are archived (their worktrees go, their journals
// stay). While one is still going the server refuses and says so; the person may then abort them.

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
      onKept(`Kept ${label}; ${r.archived.length ? `archived the others: ${r.archived.map(nameOf).join(', ')}` : 'nothing else to archive (the others were archived already)'}.`);
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
      <button type="button" disabled={busy} onClick={() => void keep(false)} aria-label={`Keep this one: ${label}`}>Keep this one</button>
      <ErrorNote error={refused} />
      {going ? <button type="button" class="danger" disabled={busy} onClick={() => void keep(true)}>Abort the others and keep this one</button> : null}
    </div>
  );
};
