import { useEffect, useRef, useState } from 'preact/hooks';
import type { PullRequestView } from '../../../domain/pull-request.js';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, type ApiError } from '../api.js';
import { ErrorNote, Loading } from '../ui/page.js';
import { useThrottledLoad } from './throttle.js';
import { CreatePullRequest, MergeLocally, UpdateFromBase } from './ship.js';
import { LoopLine } from './pr-loop.js';
import { mergeStateText, reviewText, stateText } from './pr-words.js';

// The run's pull request as the code host has it now: merge state, checks (required or not, and
// their outcome), the latest review per reviewer, who is still asked to review, and the review
// threads not yet resolved. Read when shown, on Refresh, and as the run moves (at most every 15 s,
// so the code host is not asked once per agent message); all of it text.

const Checks = ({ pr }: { readonly pr: PullRequestView }) => (
  <section aria-labelledby="pr-checks">
    <h3 id="pr-checks">Checks</h3>
    {pr.checks.length === 0 ? <p class="muted">No checks.</p> : (
      <table class="table">
        <thead><tr><th scope="col">Check</th><th scope="col">Required</th><th scope="col">Outcome</th></tr></thead>
        <tbody>
          {pr.checks.map((c, i) => (
            <tr key={`${c.name}-${i}`}>
              <td>{c.name}</td>
              <td>{c.required ? 'required' : 'optional'}</td>
              <td class={`o-${c.outcome}`}>{c.outcome} <span class="muted">({c.state})</span></td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </section>
);

const People = ({ pr }: { readonly pr: PullRequestView }) => (
  <>
    <section aria-labelledby="pr-reviews">
      <h3 id="pr-reviews">Reviews</h3>
      {pr.reviews.length === 0 ? <p class="muted">No reviews yet.</p> : (
        <ul>{pr.reviews.map((r, i) => <li key={i}>{r.author ?? 'ghost'}: {reviewText(r.state)}</li>)}</ul>
      )}
    </section>
    <section aria-labelledby="pr-requested">
      <h3 id="pr-requested">Requested reviewers</h3>
      {pr.requestedReviewers.length === 0 ? <p class="muted">Nobody.</p> : (
        <ul>{pr.requestedReviewers.map((r) => <li key={`${r.kind}:${r.name}`}>{r.name} <span class="muted">({r.kind === 'Team' ? 'team' : 'person'})</span></li>)}</ul>
      )}
    </section>
  </>
);

const Threads = ({ pr }: { readonly pr: PullRequestView }) => {
  const open = pr.reviewThreads.filter((t) => !t.resolved);
  return (
    <section aria-labelledby="pr-threads">
      <h3 id="pr-threads">Unresolved threads ({open.length})</h3>
      {open.length === 0 ? <p class="muted">None.</p> : (
        <ul class="pr-threads">
          {open.map((t, i) => (
            <li key={i}>
              {t.comments.map((c, j) => (
                <div key={j}>
                  <p class="muted"><code>{c.path}</code> · {c.author ?? 'ghost'}{t.outdated ? ' · outdated' : ''}</p>
                  <p class="prose">{c.body}</p>
                </div>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

// A link only to a web page: a URL from elsewhere never becomes a javascript: link.
const webHref = (url: string): string | undefined => (/^https?:\/\//i.test(url) ? url : undefined);

// Create pull request's form goes once the pull request is recorded, and with it the keyboard's
// place: it moves to the new pull request's link, unless the person has put it somewhere else.
const useFocusOnOpened = (number: number | undefined) => {
  const link = useRef<HTMLAnchorElement>(null);
  const before = useRef(number);
  useEffect(() => {
    const opened = before.current === undefined && number !== undefined;
    before.current = number;
    if (opened && (!document.activeElement || document.activeElement === document.body)) link.current?.focus();
  }, [number]);
  return link;
};

export const PullRequest = ({ run, changes }: { readonly run: RunDetail; readonly changes: number }) => {
  const ref = run.pullRequest;
  const link = useFocusOnOpened(ref?.number);
  const [pr, setPr] = useState<PullRequestView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [asked, setAsked] = useState(0);
  useThrottledLoad((live) => {
    if (!ref) return;
    api<{ pullRequest: PullRequestView }>(`runs/${encodeURIComponent(run.id)}/pull-request?number=${ref.number}`).then(
      (r) => { if (live()) { setPr(r.pullRequest); setError(null); } },
      (e: ApiError) => { if (live()) setError(e); },
    );
  }, [run.id, ref?.number, changes, asked], 15_000);
  // shipping: a pull request to create when there is none; a local merge and an update from base always
  // once merged locally, nothing is left to ship: the merge panel marks it merged
  const merged = (run.merged?.length ?? 0) > 0;
  const ship = <><MergeLocally run={run} />{merged ? null : <UpdateFromBase run={run} />}</>;
  if (!ref) return <div class="pr">{merged ? null : <CreatePullRequest run={run} />}{ship}</div>;
  return (
    <div class="pr">
      <p class="row"><a ref={link} href={webHref(ref.url)} target="_blank" rel="noopener noreferrer">{ref.repository}#{ref.number}</a>{pr ? <span> · {pr.title}</span> : null}
        <button type="button" onClick={() => setAsked((n) => n + 1)}>Refresh</button></p>
      <LoopLine run={run} />
      {run.pullRequests.length > 1 ? <p class="muted">Earlier: {run.pullRequests.filter((p) => p.number !== ref.number).map((p) => `#${p.number}`).join(', ')}</p> : null}
      <ErrorNote error={error} />
      {!pr ? (error ? null : <Loading what="the pull request" />) : (
        <>
          <dl class="facts">
            <dt>State</dt><dd>{stateText(pr.state, pr.draft)}</dd>
            <dt>Merge state</dt><dd>{mergeStateText(pr.mergeState, pr.mergeable)}</dd>
            <dt>Review decision</dt><dd>{reviewText(pr.reviewDecision)}</dd>
            <dt>Auto-merge</dt><dd>{pr.autoMerge ? pr.autoMerge.mergeMethod : 'off'}{pr.inMergeQueue ? ' · in the merge queue' : ''}</dd>
          </dl>
          <Checks pr={pr} />
          <People pr={pr} />
          <Threads pr={pr} />
        </>
      )}
      {ship}
    </div>
  );
};
