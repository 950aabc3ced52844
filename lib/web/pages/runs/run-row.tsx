import type { BoardRow } from '../../data/runs-index.js';
import { StandingBadge } from '../../ui/badge.js';
import { Link } from '../../ui/link.js';
import { needsReason } from './groups.js';

// One run on the board: what it is, where it stands, and MoveToFront for a queued run.

export interface RunRowProps {
  readonly row: BoardRow;
  readonly projectName: string;
  readonly queuePlace?: number;
  readonly onMoveToFront?: (row: BoardRow) => void;
}

export const RunRow = ({ row, projectName, queuePlace, onMoveToFront }: RunRowProps) => {
  const reason = needsReason(row);
  const canMove = onMoveToFront && row.canMoveToFront;
  return (
    <li class="board-row" data-run={row.runId}>
      <div class="board-main">
        <StandingBadge standing={row.standing} />
        {reason && reason !== row.standing ? <span class="chip">{reason}</span> : null}
        {row.archived ? <span class="chip">Archived</span> : null}
        <Link href={`/runs/${encodeURIComponent(row.runId)}`} class="title">{row.title}</Link>
      </div>
      <div class="board-meta muted">
        {queuePlace !== undefined ? <span>#{queuePlace} in queue · </span> : null}
        <span>{projectName}</span> · <span>{row.workflowName}</span>
        {row.currentStep ? <> · <span>at {row.currentStep}</span></> : null}
      </div>
      {canMove ? <button type="button" class="small" onClick={() => onMoveToFront(row)} aria-label={`Move to front: ${row.title}`}>Move to front</button> : null}
    </li>
  );
};
