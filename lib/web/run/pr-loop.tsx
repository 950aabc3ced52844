import { useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, type ApiError } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import { useFocusBack } from '../ui/focus-back.js';

// The pull request loop of a watching deliver step (docs/shipping.md): what it is doing ("watching
// pull request #4", "cycle 2 of 3: fixing `lint`") and a button that reads the pull request now.

export const LoopLine = ({ run }: { readonly run: RunDetail }) => {
  const loop = run.pullRequestLoop;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const focus = useFocusBack(busy);
  if (!loop) return null;
  const check = () => {
    focus.hold();
    setBusy(true);
    api(`runs/${encodeURIComponent(run.id)}/pull-request/check`, { body: {} }).then(
      () => { setBusy(false); setError(null); },
      (e: ApiError) => { setBusy(false); setError(e); },
    );
  };
  return (
    <div class="pr-loop" role="status">
      <p class="row"><span class="pr-loop-text">{loop.text}</span>
        <button type="button" onClick={check} disabled={busy}>{busy ? 'Checking…' : 'Check now'}</button></p>
      <ErrorNote error={error} />
    </div>
  );
};
