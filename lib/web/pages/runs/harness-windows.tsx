import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { windowText } from './quota.js';

// Above the board: each harness that is out of quota now, "claude: limited until 14:05" (GET
// /api/harnesses). Read when the board opens and again whenever a run's quota wait changes (the
// `key` the board passes), so it follows the push stream rather than polling.

interface HarnessRow {
  readonly name: string;
  readonly limitedUntil: string | null;
}

export const HarnessWindows = ({ changed, now }: { readonly changed: string; readonly now: number }) => {
  const [rows, setRows] = useState<readonly HarnessRow[]>([]);
  useEffect(() => {
    api<{ harnesses: HarnessRow[] }>('harnesses').then((r) => setRows(r.harnesses), () => setRows([]));
  }, [changed]);
  const limited = rows.filter((r) => r.limitedUntil !== null && (r.limitedUntil === 'unknown' || Date.parse(r.limitedUntil) > now));
  if (limited.length === 0) return null;
  return (
    <p class="muted harness-windows" data-harness-windows>
      {limited.map((r, i) => (
        <span key={r.name}>{i ? ' · ' : ''}{r.name}: {windowText(r.limitedUntil === 'unknown' ? null : r.limitedUntil, now)}</span>
      ))}
    </p>
  );
};
