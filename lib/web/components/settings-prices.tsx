import { useRef, useState } from 'preact/hooks';
import { changeSetting, type PriceRow } from './settings-api.js';
import { HARNESSES, Outcome } from './settings-parts.js';
import { useSave } from './use-save.js';

// Settings > Prices: the `Prices` table (lib/usage/prices.ts, docs/usage.md), what a turn costs
// in US dollars per million tokens where its CLI reports tokens but no cost. Without it a model
// the table lacks could only be priced over HTTP, and its turns stayed "cost unknown". Each row is
// a group of fields that wraps, so a phone shows it without scrolling sideways; the whole table is
// sent at once and the server's refusal is shown as it is.

const RATES = [['inputPerMTok', 'Input'], ['cachedInputPerMTok', 'Cached input'], ['outputPerMTok', 'Output']] as const;
type Rate = (typeof RATES)[number][0];
/** a row as edited: the rates as typed, so a half-typed number is not rewritten under the cursor */
type Draft = { readonly key: number; harness: string; model: string } & Record<Rate, string>;

let keys = 0;
const draftOf = (p: PriceRow): Draft => ({ key: ++keys, harness: p.harness, model: p.model, inputPerMTok: String(p.inputPerMTok), cachedInputPerMTok: String(p.cachedInputPerMTok), outputPerMTok: String(p.outputPerMTok) });
const rowOf = (d: Draft): PriceRow => ({ harness: d.harness, model: d.model.trim(), inputPerMTok: Number(d.inputPerMTok), cachedInputPerMTok: Number(d.cachedInputPerMTok), outputPerMTok: Number(d.outputPerMTok) });
const nameOf = (d: Draft): string => `${d.harness} ${d.model.trim() || '(no model)'}`;

const PriceFields = ({ d, onEdit, onRemove }: { readonly d: Draft; readonly onEdit: (d: Draft) => void; readonly onRemove: () => void }) => (
  <fieldset class="price-row" data-price={nameOf(d)}>
    <legend>{nameOf(d)}</legend>
    <label>Harness
      <select value={d.harness} onChange={(e) => onEdit({ ...d, harness: e.currentTarget.value })}>
        {HARNESSES.map((h) => <option key={h} value={h}>{h}</option>)}
      </select>
    </label>
    <label>Model<input value={d.model} required onInput={(e) => onEdit({ ...d, model: e.currentTarget.value })} aria-describedby="set-prices-hint" /></label>
    {RATES.map(([k, label]) => (
      <label key={k}>{label} $/M tokens
        <input type="number" min={0} max={10000} step="any" required inputMode="decimal" value={d[k]} onInput={(e) => onEdit({ ...d, [k]: e.currentTarget.value })} />
      </label>
    ))}
    <button type="button" class="small danger" aria-label={`Remove the price of ${nameOf(d)}`} onClick={onRemove}>Remove</button>
  </fieldset>
);

const PriceList = ({ saved, onChanged }: { readonly saved: readonly PriceRow[]; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  const [rows, setRows] = useState<readonly Draft[]>(() => saved.map(draftOf));
  const add = useRef<HTMLButtonElement>(null);
  // the Remove button goes with its row: the keyboard's place moves to Add a price, not to the page's top
  const remove = (key: number) => { setRows(rows.filter((r) => r.key !== key)); add.current?.focus(); };
  const submit = () => void save.run(() => changeSetting({ _tag: 'Prices', prices: rows.map(rowOf) }),
    rows.length ? `Prices saved: ${rows.length} row${rows.length === 1 ? '' : 's'}.` : 'Prices cleared: every turn without a reported cost is of unknown cost.');
  return (
    <form aria-label="Prices per million tokens" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <p id="set-prices-hint" class="muted about">US dollars per million tokens, for turns whose CLI reports tokens but no cost (codex; opencode for a model it does not price). Model * prices the harness's default model. A turn with no row here is shown as of unknown cost, never as $0.</p>
      {rows.length === 0 ? <p class="muted">No prices.</p> : rows.map((d) => (
        <PriceFields key={d.key} d={d} onEdit={(n) => setRows(rows.map((r) => (r.key === d.key ? n : r)))} onRemove={() => remove(d.key)} />
      ))}
      <div class="row">
        <button type="button" ref={add} onClick={() => setRows([...rows, draftOf({ harness: 'codex', model: '', inputPerMTok: 0, cachedInputPerMTok: 0, outputPerMTok: 0 })])}>Add a price</button>
        <button type="submit" disabled={save.busy}>Save prices</button>
      </div>
      <Outcome error={save.error} done={save.done} />
    </form>
  );
};

/** starts from what the server stored; not keyed by it, so a save's outcome stays on screen */
export const Prices = ({ prices, onChanged }: { readonly prices: readonly PriceRow[] | undefined; readonly onChanged: () => void }) =>
  <PriceList saved={prices ?? []} onChanged={onChanged} />;
