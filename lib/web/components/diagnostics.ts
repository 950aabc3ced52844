import type { Diagnostic } from './shapes.js';

// Where in the workflow text a diagnostic belongs: the line that sets its attribute on its node
// (or on the graph, when it names no node), else the node's own statement, else nowhere (null:
// shown above the text). The server names the line for some (an unknown attribute); for the rest
// this is a guess from the text, so the editor can pin diagnostics while the person types.

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const locate = (lines: readonly string[], d: Diagnostic): number | null => {
  const attr = d.attribute ? new RegExp(`(^|[\\s,\\[])"?${escape(d.attribute)}"?\\s*=`) : null;
  if (d.node) {
    const stmt = new RegExp(`^\\s*"?${escape(d.node)}"?\\s*(\\[|$|;|->)`);
    const edge = new RegExp(`(^|[\\s>])"?${escape(d.node)}"?(\\s*(->|;|\\[)|\\s*$)`);
    let at = lines.findIndex((l) => stmt.test(l) && l.includes('['));
    if (at < 0) at = lines.findIndex((l) => stmt.test(l));
    if (at < 0) at = lines.findIndex((l) => edge.test(l));
    if (at < 0) return null;
    if (attr && !attr.test(lines[at]!)) {
      // an attribute list may run over several lines: look until the statement closes
      for (let i = at + 1; i < lines.length && i < at + 40; i++) {
        if (attr.test(lines[i]!)) return i;
        if (lines[i]!.includes(']')) break;
      }
    }
    return at;
  }
  if (attr) {
    const graphAttr = new RegExp(`^\\s*"?${escape(d.attribute!)}"?\\s*=`);
    const at = lines.findIndex((l) => graphAttr.test(l));
    return at < 0 ? null : at;
  }
  return null;
};

export interface Pinned {
  readonly kind: 'error' | 'warning';
  readonly d: Diagnostic;
  readonly line: number | null;
}

// The server's line, where it gives one, beats the guess (an edge's attribute, a `node [...]` default).
const lineOf = (lines: readonly string[], d: Diagnostic): number | null =>
  d.line !== undefined && d.line >= 1 && d.line <= lines.length ? d.line - 1 : locate(lines, d);

export const pin = (source: string, errors: readonly Diagnostic[], warnings: readonly Diagnostic[]): Pinned[] => {
  const lines = source.split('\n');
  return [
    ...errors.map((d) => ({ kind: 'error' as const, d, line: lineOf(lines, d) })),
    ...warnings.map((d) => ({ kind: 'warning' as const, d, line: lineOf(lines, d) })),
  ];
};

/** `node work, attribute prompt: …` */
export const where = (d: Diagnostic): string =>
  [d.node ? `node ${d.node}` : d.attribute ? 'graph' : '', d.attribute ? `attribute ${d.attribute}` : ''].filter(Boolean).join(', ');
