import { useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError, authHeaders } from '../api.js';
import { NoteLine, sendControl, type Note } from './controls.js';
import { MoreMenu } from './more-menu.js';
import type { RunData } from './data.js';
import { ConfirmButton } from './confirm.js';
import { ArchiveKeeping } from './keeping-text.js';

// What a person does with a run as a whole: secure its work (commit and push), archive or bring it
// back, resolve a run that ended without success, and behind "More" the rare ones: export it (a
// download) and restart it. Each shows only when the server would take it. Archive asks first,
// saying what it keeps.

const ENDED = ['Succeeded', 'Failed', 'Aborted'];

interface SecuredFolder { readonly folder: string; readonly branch: string; readonly commit: string | null; readonly pushedTo: string | null; readonly localOnly?: boolean; readonly detail?: string }

const securedText = (folders: readonly SecuredFolder[]) => folders.map((f) =>
  f.detail ? `${f.folder}: ${f.detail}` : `${f.folder}: ${f.commit ? `committed ${f.commit.slice(0, 10)}` : 'nothing to commit'}${f.pushedTo ? `, pushed to ${f.pushedTo}` : ''}${f.localOnly ? ` on ${f.branch} (no origin to push to: kept in this repository)` : ''}`).join('; ');

// The export is fetched (so the window's Bearer header goes along) and handed to the browser as a
// file; an <a href> to /api could not carry the header.
const download = async (runId: string): Promise<void> => {
  const res = await fetch(`/api/runs/${encodeURIComponent(runId)}/export`, { headers: authHeaders() });
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { detail?: string } | null;
    throw new ApiError(res.status, body?.detail ?? `export failed: HTTP ${res.status}`, body);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `${runId}.jsonl`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

export const RunActions = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const enc = encodeURIComponent(run.id);
  const ended = ENDED.includes(run.standing);
  const act = async (f: () => Promise<string>) => {
    setBusy(true);
    setNote(null);
    try {
      setNote({ kind: 'ok', text: await f() });
    } catch (e) {
      setNote({ kind: 'error', text: e instanceof ApiError ? e.detail : String(e) });
    }
    await data.refresh();
    setBusy(false);
  };
  const restart = async () => {
    setBusy(true);
    setNote(await sendControl(data, run, 'Restart'));
    setBusy(false);
  };
  return (
    <section class="run-actions" aria-label="Run actions">
      <div class="row">
        {/* a merged run's work is already in its base: nothing is left to secure */}
        {!run.archived && !run.merged && run.standing !== 'Created' && run.standing !== 'Queued' ? (
          <button type="button" disabled={busy} onClick={() => void act(async () => {
            const r = await api<{ folders: SecuredFolder[] }>(`runs/${enc}/secure`, { body: {} });
            return `Work secured. ${securedText(r.folders)}`;
          })}>Secure work</button>
        ) : null}
        {ended && !run.archived ? (
          <ConfirmButton label="Archive" disabled={busy} yes="Archive" no="Don't archive" question={<ArchiveKeeping runId={run.id} />}
            onConfirm={() => void act(async () => {
              const r = await api<{ kept: string }>(`runs/${enc}/archive`, { body: { state: 'Archived' } });
              return `Archived. ${r.kept}`;
            })} />
        ) : null}
        {ended && run.archived ? (
          <button type="button" disabled={busy} onClick={() => void act(async () => {
            const r = await api<{ kept: string }>(`runs/${enc}/archive`, { body: { state: 'Active' } });
            return `Back in the list. ${r.kept}`;
          })}>Unarchive</button>
        ) : null}
        {ended && run.standing !== 'Succeeded' && !run.resolved ? (
          <button type="button" disabled={busy} onClick={() => void act(async () => {
            await api(`runs/${enc}/resolve`, { body: {} });
            return 'Resolved.';
          })}>Resolve</button>
        ) : null}
        <MoreMenu label="More" items={[
          { label: 'Export', run: () => void act(async () => { await download(run.id); return 'Export downloaded.'; }) },
          // a run merged locally is shipped: a Restart would redo work already in its base
          ...(run.allowedActions.includes('Restart') && !run.merged?.length ? [{ label: 'Restart', run: () => void restart() }] : []),
        ]} />
      </div>
      <NoteLine note={note} />
    </section>
  );
};
