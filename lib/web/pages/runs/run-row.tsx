import type { BoardRow } from '../../data/runs-index.js';
import { StandingBadge } from '../../ui/badge.js';
import { Link } from '../../ui/link.js';
import { ForkLine } from './forks.js';
import { needsReason } from './groups.js';
import { ago, span } from './time.js';
import { costText, hasUsage } from '../../ui/usage-text.js';
import { waitingText } from './quota.js';
import { AttemptGroup } from '../../attempts/group-card.js';
import { BoardQuestion } from './board-question.js';

// One run on the board: what it is, where it stands, its age, how long it has run (or ran), its
// harness and last activity, why it failed; MoveToFront for a queued run; Start, and a checkbox for
// the bulk Start, for a run that was created without starting.

export interface RunRowProps {
  readonly row: BoardRow;
  readonly projectName: string;
  /** the time the board was drawn at, for ages and durations */
  readonly now: number;
  readonly queuePlace?: number;
  readonly onMoveToFront?: (row: BoardRow) => void;
  readonly onStart?: (row: BoardRow) => void;
  readonly selected?: boolean;
  readonly onSelect?: (row: BoardRow, on: boolean) => void;
  /** the run and its follow-ups, oldest first, when the row stands for a chain of them */
  readonly attempts?: readonly BoardRow[] | undefined;
  /** the attempts started together on the goal, in order, when the row stands for their group */
  readonly group?: readonly BoardRow[] | undefined;
  /** the forks made of this run, and every row (to name a fork's source) */
  readonly forks?: readonly BoardRow[] | undefined;
  readonly rows?: ReadonlyMap<string, BoardRow>;
  /** supervisor cards waiting, per run */
  readonly cards?: ReadonlyMap<string, number>;
  /** the previews answering now: run id to its path under svc */
  readonly previews?: ReadonlyMap<string, string>;
}

// A chain's card is titled by its first run (what the work is) and links each attempt.
const Attempts = ({ attempts }: { readonly attempts: readonly BoardRow[] }) => (
  <div class="board-attempts muted">
    <span class="chip">{attempts.length} attempts</span>
    {attempts.map((a, i) => (
      <span key={a.runId}><Link href={`/runs/${encodeURIComponent(a.runId)}`} title={a.title}>Attempt {i + 1}: {a.standing}</Link></span>
    ))}
  </div>
);

// how long a run has gone: a paused or waiting run is not "running"
const ranText = (row: BoardRow, ran: string): string =>
  row.endedAt ? `ran ${ran}` : row.standing === 'Paused' ? `paused, started ${ran} ago` : row.standing === 'Running' ? `running for ${ran}` : `started ${ran} ago`;

// `cost`: off on an attempts card, where each attempt shows its own
const Times = ({ row, now, cost }: { readonly row: BoardRow; readonly now: number; readonly cost: boolean }) => {
  const ran = row.startedAt ? span((row.endedAt ? Date.parse(row.endedAt) : now) - Date.parse(row.startedAt)) : null;
  return (
    <div class="board-times muted">
      <span title={row.createdAt}>created {ago(row.createdAt, now)}</span>
      {ran ? <> · <span>{ranText(row, ran)}</span></> : null}
      {row.harness ? <> · <span>{row.harness}</span></> : null}
      {cost && hasUsage(row) ? <> · <span class="board-cost" title="what this run's agent turns cost">{costText(row.costUsd, row.unknownTurns)}</span></> : null}
      {' · '}<span title={row.updatedAt}>last activity {ago(row.updatedAt, now)}</span>
    </div>
  );
};

export const RunRow = ({ row, projectName, now, queuePlace, onMoveToFront, onStart, selected, onSelect, attempts, group, forks, rows, cards, previews }: RunRowProps) => {
  const preview = previews?.get(row.runId);
  const reason = needsReason(row, cards);
  const canMove = onMoveToFront && row.canMoveToFront;
  const canStart = onStart && row.canStart;
  const waiting = waitingText(row.waitingOn, now);
  return (
    <li class="board-row" data-run={row.runId} {...(attempts ? { 'data-attempts': attempts.length } : {})} {...(group ? { 'data-group': group[0]?.attempt?.group } : {})}>
      <div class="board-main">
        {canStart && onSelect ? (
          <input type="checkbox" checked={selected ?? false} aria-label={`Select ${row.title}`} onChange={(e) => onSelect(row, e.currentTarget.checked)} />
        ) : null}
        <StandingBadge standing={row.standing} />
        {reason && reason !== row.standing ? <span class="chip" data-needs>{reason}</span> : null}
        {row.merged ? <span class="chip" data-merged title="a branch of this run was merged locally">Merged</span> : null}
        {row.archived ? <span class="chip">Archived</span> : null}
        <Link href={`/runs/${encodeURIComponent(row.runId)}`} class="title">{attempts?.[0]?.title ?? row.title}</Link>
      </div>
      {attempts ? <Attempts attempts={attempts} /> : null}
      {group ? <AttemptGroup attempts={group} /> : null}
      {rows ? <ForkLine row={row} forks={forks} rows={rows} /> : null}
      <div class="board-meta muted">
        {queuePlace !== undefined ? <span>#{queuePlace} in queue · </span> : null}
        <span>{projectName}</span> · <span>{row.workflowName}</span>
        {row.currentStep ? <> · <span>at {row.currentStep}</span></> : null}
      </div>
      <Times row={row} now={now} cost={!group} />
      {row.question ? <BoardQuestion key={row.question.id} row={row} question={row.question} /> : null}
      {waiting ? <p class="board-reason" data-quota={row.waitingOn?.harness}>{waiting}</p> : null}
      {row.endReason ? <p class="board-reason">{row.standing === 'Failed' ? 'Failed: ' : `${row.standing}: `}{row.endReason}</p> : null}
      {row.pauseReason && row.standing === 'Paused' ? <p class="board-reason">Paused: {row.pauseReason}</p> : null}
      {row.waiting && row.standing === 'Queued' ? <p class="board-reason">{row.waiting}</p> : null}
      {canMove ? <button type="button" class="small" onClick={() => onMoveToFront(row)} aria-label={`Move to front: ${row.title}`}>Move to front</button> : null}
      {canStart ? <button type="button" class="small" onClick={() => onStart(row)} aria-label={`Start: ${row.title}`}>Start</button> : null}
      {preview ? <a class="button small" href={preview} target="_blank" rel="noopener" aria-label={`Open the preview of ${row.title}`}>Preview</a> : null}
    </li>
  );
};
