import type { Pinned } from './diagnostics.js';
import { where } from './diagnostics.js';

// A workflow's text (prompts inlined), line by line, with each diagnostic shown under the line it
// is pinned to. Text only: whatever the file holds is shown, never interpreted.

export const SourceView = ({ source, pinned, label }: { readonly source: string; readonly pinned: readonly Pinned[]; readonly label: string }) => {
  const lines = source.split('\n');
  const at = new Map<number, Pinned[]>();
  for (const p of pinned) if (p.line !== null) at.set(p.line, [...(at.get(p.line) ?? []), p]);
  return (
    <div class="source" role="region" aria-label={label} tabIndex={0}>
      <ol class="lines">
        {lines.map((l, i) => (
          <li key={i} class={at.has(i) ? 'pinned' : undefined}>
            <code>{l || ' '}</code>
            {at.get(i)?.map((p, j) => (
              <span key={j} class={`diag ${p.kind}`} data-node={p.d.node ?? ''} data-attribute={p.d.attribute ?? ''}>
                {p.kind === 'error' ? 'Error' : 'Warning'}{where(p.d) ? ` (${where(p.d)})` : ''}: {p.d.message}
              </span>
            ))}
          </li>
        ))}
      </ol>
    </div>
  );
};
