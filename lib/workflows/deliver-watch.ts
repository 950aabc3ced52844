import type { StepNode } from '../../domain/workflow.js';

// A deliver step's pull request loop, read off its attributes: `watch=true` keeps the run with
// the pull request it opened until it is merged or closed; `cycles=N` (default 3) caps the agent
// turns it may start on failing checks, review threads and conflicts; `resolveThreads=true`
// resolves each review thread once it is answered (default: left for the reviewer to resolve).

export const DEFAULT_CYCLES = 3;
export const MAX_CYCLES = 50;

export interface DeliverWatch {
  readonly cycles: number;
  readonly resolveThreads: boolean;
}

type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const flag = (key: string, text: string | undefined, fallback: boolean): Read<boolean> => {
  if (text === undefined) return { ok: true, value: fallback };
  if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
  return { ok: false, message: `${key} is true or false, not ${text}` };
};

const cyclesOf = (text: string | undefined): Read<number> => {
  if (text === undefined) return { ok: true, value: DEFAULT_CYCLES };
  const n = Number(text);
  return /^\d+$/.test(text) && n >= 1 && n <= MAX_CYCLES ? { ok: true, value: n } : { ok: false, message: `cycles is a whole number from 1 to ${MAX_CYCLES}, not ${text}` };
};

/** the problems with a deliver node's loop attributes, by attribute (the parser reports them) */
export const deliverWatchProblems = (attrs: Readonly<Record<string, string>>): { key: string; message: string }[] => {
  const reads: [string, Read<unknown>][] = [
    ['watch', flag('watch', attrs['watch'], false)], ['cycles', cyclesOf(attrs['cycles'])], ['resolveThreads', flag('resolveThreads', attrs['resolveThreads'], false)],
  ];
  return reads.flatMap(([key, r]) => (r.ok ? [] : [{ key, message: r.message }]));
};

/** the loop a deliver node asks for, or null when it does not watch (or its attributes are wrong) */
export const deliverWatch = (node: StepNode): DeliverWatch | null => {
  if (node.kind !== 'deliver') return null;
  const watch = flag('watch', node.attrs['watch'], false);
  const cycles = cyclesOf(node.attrs['cycles']);
  const resolve = flag('resolveThreads', node.attrs['resolveThreads'], false);
  if (!watch.ok || !watch.value || !cycles.ok || !resolve.ok) return null;
  return { cycles: cycles.value, resolveThreads: resolve.value };
};
