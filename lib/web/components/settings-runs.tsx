import { useState } from 'preact/hooks';
import { changeSetting, type SettingsView } from './settings-api.js';
import { HARNESSES, num, Outcome } from './settings-parts.js';
import { useSave } from './use-save.js';

// Settings > General, how runs carry on: how often a watching deliver step reads its pull request
// (PullRequestWatchInterval) and the harnesses a run switches to when its harness is out of quota
// (FallbackHarnesses, an ordered list; a workflow's own list wins, docs/usage.md).

export const PullRequestWatch = ({ s, onChanged }: { readonly s: SettingsView; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  return (
    <form aria-labelledby="set-prwatch-h" onSubmit={(e) => { e.preventDefault(); const v = num(e.currentTarget, 'seconds'); void save.run(() => changeSetting({ _tag: 'PullRequestWatchInterval', seconds: v }), `Pull request watch interval set to ${v} seconds.`); }}>
      <h3 id="set-prwatch-h">Pull request watch</h3>
      <div class="inline-form">
        <label for="set-prwatch">Seconds between reads of a watched pull request</label>
        <input id="set-prwatch" name="seconds" type="number" min={10} max={86400} step={1} required defaultValue={String(s.prWatchIntervalSeconds)} key={s.prWatchIntervalSeconds} aria-describedby="set-prwatch-hint" />
        <button type="submit" disabled={save.busy}>Save watch interval</button>
      </div>
      <p id="set-prwatch-hint" class="muted about">10 to 86400; the default is 60. Applies to deliver steps with watch=true.</p>
      <Outcome error={save.error} done={save.done} />
    </form>
  );
};

const FallbackList = ({ saved, onChanged }: { readonly saved: readonly string[]; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  const [list, setList] = useState<readonly string[]>(saved);
  const spare = HARNESSES.filter((h) => !list.includes(h));
  const move = (i: number, by: number) => {
    const l = [...list];
    [l[i], l[i + by]] = [l[i + by]!, l[i]!];
    setList(l);
  };
  const submit = () => void save.run(() => changeSetting({ _tag: 'FallbackHarnesses', harnesses: list }),
    list.length ? `Fallback harnesses set to ${list.join(', ')}.` : 'No fallback harnesses: a run out of quota waits.');
  return (
    <form aria-labelledby="set-fallback-h" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <h3 id="set-fallback-h">Fallback harnesses on quota</h3>
      <p id="set-fallback-hint" class="muted about">When a step's harness is out of quota, the run switches to the first of these that is ready and not limited; with none it waits for the window. A workflow's own fallbackHarnesses wins.</p>
      {list.length === 0 ? <p class="muted">None.</p> : (
        <ol class="plain fallbacks" aria-label="Fallback harnesses, in order">
          {list.map((h, i) => (
            <li key={h} class="row" data-fallback={h}>
              <span class="grow">{i + 1}. {h}</span>
              <button type="button" class="small" disabled={i === 0} aria-label={`Move ${h} up`} onClick={() => move(i, -1)}>Up</button>
              <button type="button" class="small" disabled={i === list.length - 1} aria-label={`Move ${h} down`} onClick={() => move(i, 1)}>Down</button>
              <button type="button" class="small danger" aria-label={`Remove fallback ${h}`} onClick={() => setList(list.filter((x) => x !== h))}>Remove</button>
            </li>
          ))}
        </ol>
      )}
      {spare.length > 0 && (
        <div class="inline-form">
          <label for="set-fallback-add">Add a fallback</label>
          <select id="set-fallback-add" value="" onChange={(e) => { const h = e.currentTarget.value; if (h) setList([...list, h]); }}>
            <option value="">(choose a harness)</option>
            {spare.map((h) => <option key={h} value={h}>{h}</option>)}
          </select>
        </div>
      )}
      <button type="submit" disabled={save.busy}>Save fallback harnesses</button>
      <Outcome error={save.error} done={save.done} />
    </form>
  );
};

/** the list starts from what the server stored (the page opens with the settings read); not keyed by
 *  it, since a remount on save would drop the save's outcome before it is read */
export const FallbackHarnesses = ({ s, onChanged }: { readonly s: SettingsView; readonly onChanged: () => void }) =>
  <FallbackList saved={s.fallbackHarnesses ?? []} onChanged={onChanged} />;
