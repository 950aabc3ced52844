import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';

// What Archive or "Keep this one" will keep of a run's worktrees, read from the server when the
// question opens (GET /api/runs/{id}/archive or /keep): the person confirms knowing their
// uncommitted work is kept and comes back on unarchive.

interface Keeping { readonly runId: string; readonly text: string }
interface KeepKeeping { readonly others: readonly Keeping[]; readonly text: string }

const useRead = <T,>(path: string): { value: T | null; error: string | null } => {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api<T>(path).then((v) => { if (live) setValue(v); }, (e: unknown) => { if (live) setError(e instanceof ApiError ? e.detail : String(e)); });
    return () => { live = false; };
  }, [path]);
  return { value, error };
};

const pending = (error: string | null) => (error ? `What it keeps could not be read: ${error}` : 'Reading what it keeps…');

export const ArchiveKeeping = ({ runId }: { readonly runId: string }) => {
  const { value, error } = useRead<Keeping>(`runs/${encodeURIComponent(runId)}/archive`);
  return <span class="keeping">Archive this run? Its worktree is removed. {value ? value.text : pending(error)}</span>;
};

/** `nameOf`: how the question names another attempt (its agent), as the Keep note does */
export const KeepKeepingText = ({ runId, nameOf }: { readonly runId: string; readonly nameOf: (runId: string) => string }) => {
  const { value, error } = useRead<KeepKeeping>(`runs/${encodeURIComponent(runId)}/keep`);
  if (!value) return <span class="keeping">Keep this one? {pending(error)}</span>;
  if (value.others.length === 0) return <span class="keeping">Keep this one? {value.text}</span>;
  return (
    <span class="keeping">
      Keep this one? The other attempt{value.others.length === 1 ? ' is' : 's are'} archived.
      {value.others.map((o) => <span key={o.runId} class="keeping-other"><br />{nameOf(o.runId)}: {o.text}</span>)}
    </span>
  );
};
