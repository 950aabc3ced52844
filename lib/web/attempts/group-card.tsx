import type { BoardRow } from '../data/runs-index.js';
import { StandingBadge } from '../ui/badge.js';
import { Link } from '../ui/link.js';
import { usd } from '../ui/usage-text.js';

// The attempts of one goal on the board's card: each one's agent, where it stands and what it cost,
// a link to each, and Compare (the first two; the Compare page switches either side to any other).

const enc = encodeURIComponent;

/** an attempt's cost in the app's money text (lib/web/ui/usage-text.ts), or that none is recorded */
export const attemptCost = (costUsd: number | null | undefined): string => (typeof costUsd === 'number' ? usd(costUsd) : 'cost not recorded');

export const compareHref = (a: string, b: string): string => `/compare?a=${enc(a)}&b=${enc(b)}`;

// Archived attempts leave the board unless "Show archived" is on (after a Keep, all but one): the
// card says how many of the group it shows.
const countText = (attempts: readonly BoardRow[]): string => {
  const of = attempts[0]?.attempt?.of ?? attempts.length;
  return attempts.length < of ? `${attempts.length} of ${of} agents shown` : `${of} agents`;
};

export const AttemptGroup = ({ attempts }: { readonly attempts: readonly BoardRow[] }) => {
  const [first, second] = attempts;
  const kept = attempts.find((a) => a.attempt?.kept);
  return (
    <div class="board-group" data-group={attempts[0]?.attempt?.group}>
      <span class="chip">{countText(attempts)}{kept ? ` · kept ${kept.harness ?? kept.runId}` : ''}</span>
      <ul class="group-attempts">
        {attempts.map((a) => (
          <li key={a.runId} data-attempt={a.runId}>
            <Link href={`/runs/${enc(a.runId)}`} title={a.runId}>{a.harness ?? 'agent'}{a.archived ? ' (archived)' : ''}</Link>
            {' '}<StandingBadge standing={a.standing} />
            {' '}<span class="muted">{attemptCost(a.attempt?.costUsd)}</span>
            {a.attempt?.kept ? <> <span class="chip">Kept</span></> : null}
          </li>
        ))}
      </ul>
      {first && second ? <Link class="button small" href={compareHref(first.runId, second.runId)}>Compare</Link> : null}
    </div>
  );
};
