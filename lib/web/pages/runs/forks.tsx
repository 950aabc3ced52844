import type { BoardRow } from '../../data/runs-index.js';
import { Link } from '../../ui/link.js';

// Forks on the board: the source's card says how many forks were made of it, each a link; a
// fork's card says what it was forked from and where. The index is built once per board change.

export const forkIndex = (rows: Iterable<BoardRow>): ReadonlyMap<string, readonly BoardRow[]> => {
  const by = new Map<string, BoardRow[]>();
  for (const r of rows) if (r.forkOf) by.set(r.forkOf.run, [...(by.get(r.forkOf.run) ?? []), r]);
  return by;
};

const href = (id: string) => `/runs/${encodeURIComponent(id)}`;

export const ForkLine = ({ row, forks, rows }: { readonly row: BoardRow; readonly forks?: readonly BoardRow[] | undefined; readonly rows: ReadonlyMap<string, BoardRow> }) => {
  const source = row.forkOf ? rows.get(row.forkOf.run) : undefined;
  if (!row.forkOf && !forks?.length) return null;
  return (
    <div class="board-forks muted">
      {row.forkOf ? (
        <span>fork of <Link href={href(row.forkOf.run)}>{source?.title ?? row.forkOf.run}</Link> at step {row.forkOf.step}</span>
      ) : null}
      {forks?.length ? (
        <span>
          <span class="chip">{forks.length} {forks.length === 1 ? 'fork' : 'forks'}</span>
          {/* two forks at one step differ by their agent: each link names it, and a comma parts them */}
          {forks.map((f, i) => <span key={f.runId}>{i > 0 ? ',' : ''} <Link href={href(f.runId)} title={f.title}>{`Fork at ${f.forkOf?.step ?? ''}, ${f.harness ?? 'agent'}: ${f.standing}`}</Link></span>)}
        </span>
      ) : null}
    </div>
  );
};
