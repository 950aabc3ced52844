import { type Pinned, where } from './diagnostics.js';

// A workflow's errors and warnings, each with its node and attribute and the line it was pinned
// to; `onPick` (the editor) makes each one a button that takes the caret to its line.

export const DiagnosticList = ({ pinned, onPick, label }: { readonly pinned: readonly Pinned[]; readonly label: string; readonly onPick?: (line: number) => void }) => {
  if (pinned.length === 0) return null;
  return (
    <ul class="plain diags" aria-label={label}>
      {pinned.map((p, i) => {
        const text = `${p.kind === 'error' ? 'Error' : 'Warning'}${p.line === null ? '' : ` at line ${p.line + 1}`}${where(p.d) ? ` (${where(p.d)})` : ''}: ${p.d.message}`;
        return (
          <li key={i} class={p.kind === 'error' ? 'error' : 'warning'} data-node={p.d.node ?? ''} data-attribute={p.d.attribute ?? ''}>
            {onPick && p.line !== null ? <button type="button" class="linkish" onClick={() => onPick(p.line!)}>{text}</button> : text}
          </li>
        );
      })}
    </ul>
  );
};

export const summary = (errors: number, warnings: number): string =>
  errors === 0 && warnings === 0 ? 'Loads, no problems.'
  : `${errors === 0 ? 'Loads' : 'Does not load'}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`;
