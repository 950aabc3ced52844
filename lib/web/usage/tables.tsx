import { Link } from '../ui/link.js';
import { costText, tokenCount, tokensRecorded, usd } from '../ui/usage-text.js';
import type { Stacked } from './series.js';
import type { UsageRow, UsageSums } from './shapes.js';

// The page's text: the chart's data as a table (the chart's text alternative), the runs that cost
// most, and tokens by harness (its cost first: on a phone the table scrolls sideways, and the cost
// is what is looked for). Money reads as everywhere else (usd: "<$0.01", never "$0.00" for a cent's part).

const tokensText = (u: UsageSums): string =>
  `${tokenCount(u.tokens.input)} in (${tokenCount(u.tokens.cachedInput)} cached) / ${tokenCount(u.tokens.output)} out`;

export const ChartTable = ({ data, caption }: { readonly data: Stacked; readonly caption: string }) => (
  <details class="usage-table">
    <summary>{caption}, as a table</summary>
    <div class="table-scroll" tabIndex={0} role="region" aria-label={`${caption}, scrolls sideways`}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead><tr><th scope="col">Day</th>{data.parts.map((p) => <th scope="col" key={p.label}>{p.label}</th>)}<th scope="col">Turns of unknown cost</th></tr></thead>
        <tbody>
          {data.dayNames.map((day, i) => (
            <tr key={day}><th scope="row">{day}</th>{data.parts.map((p) => <td key={p.label}>{usd(p.costs[i] ?? 0)}</td>)}<td>{data.unknown[i]}</td></tr>
          ))}
        </tbody>
      </table>
    </div>
  </details>
);

export const TopRuns = ({ rows }: { readonly rows: readonly UsageRow[] }) => (
  <ol class="usage-runs">
    {rows.map((r) => (
      <li key={r.key}>
        <Link href={`/runs/${encodeURIComponent(r.key)}`}>{r.label}</Link>
        <span class="muted"> · {costText(r.costUsd, r.unknownTurns)}{tokensRecorded(r.tokens) ? ` · ${tokensText(r)}` : ''} · {r.turns} turn{r.turns === 1 ? '' : 's'}</span>
      </li>
    ))}
  </ol>
);

export const TokensTable = ({ rows }: { readonly rows: readonly UsageRow[] }) => (
  <div class="table-scroll" tabIndex={0} role="region" aria-label="Tokens by harness, scrolls sideways">
    <table class="usage-tokens">
      <caption class="visually-hidden">Tokens by harness</caption>
      <thead><tr><th scope="col">Harness</th><th scope="col">Cost</th><th scope="col">Turns</th><th scope="col">Input</th><th scope="col">Cached input</th><th scope="col">Output</th></tr></thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{r.label}</th><td>{costText(r.costUsd, r.unknownTurns)}</td><td>{r.turns}</td>
            <td>{tokenCount(r.tokens.input)}</td><td>{tokenCount(r.tokens.cachedInput)}</td><td>{tokenCount(r.tokens.output)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

export { tokensText };
