import { useEffect, useRef, useState } from 'preact/hooks';
import type { Comparison, ComparedRun } from '../../read-models/compare.js';
import { api } from '../api.js';
import { attemptCost } from '../attempts/group-card.js';
import { FileDiff } from '../attempts/file-diff.js';
import { KeepButton } from '../attempts/keep-button.js';
import { RunPicker } from '../attempts/run-picker.js';
import { ComparePreviews } from '../attempts/compare-previews.js';
import { useLoad } from '../components/use-load.js';
import { useFollowPair } from '../attempts/follow-pair.js';
import { useRunsIndex } from '../data/runs-index.js';
import { navigate } from '../router.js';
import type { PageProps } from '../page-props.js';
import { StandingBadge } from '../ui/badge.js';
import { Link } from '../ui/link.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';
import { span } from './runs/time.js';
import { addRunStyle } from '../run/style.js';

// Two runs of one project side by side (GET /api/compare): where each stands, how long it ran, its
// cost and agent, then per file the two diffs against one base, files both changed first. Side by
// side on a wide screen, one above the other on a phone. Attempts of one group can be kept here.

const enc = encodeURIComponent;

// the diffs are drawn as on the run page, with its contrast fixes and its wrapping on a phone
addRunStyle();

interface SideProps { readonly run: ComparedRun; readonly name: string; readonly keep: boolean; readonly onKept: (note: string) => void; readonly nameOf: (runId: string) => string }

const Side = ({ run, name, keep, onKept, nameOf }: SideProps) => (
  <section class="compare-side" aria-labelledby={`side-${name}`} data-side={name}>
    <h2 id={`side-${name}`}>{name}: {run.harness ?? 'agent'}{run.model ? ` (${run.model})` : ''}</h2>
    <p><Link href={`/runs/${enc(run.runId)}`}>{run.title}</Link></p>
    <dl class="facts">
      <dt>Standing</dt><dd><StandingBadge standing={run.standing} />{run.archived ? ' · archived' : ''}{run.kept ? ' · kept' : ''}</dd>
      {run.outcome ? <><dt>Outcome</dt><dd class="compare-outcome">{run.outcome}</dd></> : null}
      <dt>Duration</dt><dd>{run.durationMs !== null ? span(run.durationMs) : run.startedAt ? 'still going' : 'not started'}</dd>
      <dt>Cost</dt><dd>{attemptCost(run.costUsd)}</dd>
    </dl>
    {keep ? <KeepButton runId={run.runId} label={`${name} (${run.harness ?? run.runId})`} onKept={onKept} nameOf={nameOf} /> : null}
  </section>
);

const sideNote = (f: { a: string | null; b: string | null }): string =>
  f.a !== null && f.b !== null ? (f.a === f.b ? 'the same change in both' : 'changed by both') : f.a !== null ? 'only A changed it' : 'only B changed it';

const Folders = ({ c }: { readonly c: Comparison }) => (
  <>
    {c.folders.map((folder) => (
      <section key={folder.folder} class="compare-folder" aria-labelledby={`folder-${folder.folder}`}>
        <h2 id={`folder-${folder.folder}`}>Folder {folder.folder}</h2>
        <p class="muted">Both diffs are against <code>{folder.base.slice(0, 12)}</code>: {folder.baseKind === 'same' ? 'the commit both runs started from' : 'the merge-base of the commits they started from'}.{folder.truncated ? ' A diff was cut at its size limit.' : ''}</p>
        {folder.notes.map((n) => <p key={n} class="muted">{n}</p>)}
        {folder.files.length === 0 ? <p class="muted">Neither run changed a file here.</p> : null}
        {folder.files.map((f) => (
          <section key={f.path} class="compare-file" data-file={f.path} aria-label={`${f.path}, ${sideNote(f)}`}>
            <h3><code>{f.path}</code> <span class="chip">{sideNote(f)}</span></h3>
            <div class="compare-cols">
              <FileDiff diff={f.a} label={`A (${c.a.harness ?? c.a.runId})`} path={f.path} />
              <FileDiff diff={f.b} label={`B (${c.b.harness ?? c.b.runId})`} path={f.path} />
            </div>
          </section>
        ))}
      </section>
    ))}
  </>
);

export const Page = ({ query }: PageProps) => {
  const a = query.get('a') ?? '';
  const b = query.get('b') ?? '';
  const [note, setNote] = useState<string | null>(null);
  const c = useLoad(a && b ? () => api<Comparison>(`compare?a=${enc(a)}&b=${enc(b)}`) : null, [a, b]);
  const index = useRunsIndex(true);
  const rows = index.rows.value;
  useFollowPair(rows, a, b, () => void c.reload());
  const project = rows.get(a)?.project;
  const runs = [...rows.values()].filter((r) => r.project === project);
  const go = (na: string, nb: string) => navigate(`/compare?a=${enc(na)}&b=${enc(nb)}`, { replace: true });
  const kept = (text: string) => { setNote(text); void c.reload(); };
  // the Keep button pressed goes away with the keep: focus goes to what it did, not to the page's top
  const noteRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => { if (note) noteRef.current?.focus(); }, [note]);
  const nameOf = (id: string) => rows.get(id)?.harness ?? id;
  const keepable = (r: ComparedRun) => !!c.data?.sameGroup && !r.archived && !r.kept;
  return (
    <section aria-labelledby="page-title" class="compare-page run-page">
      <PageHeading title="Compare" />
      {project ? (
        <div class="compare-pick two">
          <RunPicker id="cmp-a" label="Run A" runs={runs} value={a} exclude={b} onChange={(id) => go(id, b)} />
          <RunPicker id="cmp-b" label="Run B" runs={runs} value={b} exclude={a} onChange={(id) => go(a, id)} />
        </div>
      ) : null}
      <div role="status" class="status-line">{note ? <p tabIndex={-1} ref={noteRef}>{note}</p> : null}</div>
      {!a || !b ? <p class="muted">Choose two runs of one project: open Compare from an attempts card on the board, or "Compare with…" on a run's page.</p> : null}
      <ErrorNote error={c.error ?? index.error.value} />
      {a && b && !c.data && !c.error ? <Loading what="the comparison" /> : null}
      {c.data ? (
        <>
          <div class="compare-cols compare-heads">
            <Side run={c.data.a} name="A" keep={keepable(c.data.a)} onKept={kept} nameOf={nameOf} />
            <Side run={c.data.b} name="B" keep={keepable(c.data.b)} onKept={kept} nameOf={nameOf} />
          </div>
          {c.data.notes.map((n) => <p key={n} class="muted">{n}</p>)}
          <ComparePreviews a={a} b={b} />
          <Folders c={c.data} />
        </>
      ) : null}
    </section>
  );
};
