import { quoted } from '../../domain/quoted.js';

// How deep a decoded JSON value nests, found without recursion. A body of 20,000 nested arrays
// parses (JSON.parse does not recurse) but overflows the stack of anything that walks it
// recursively after: io-ts, a refusal quoting it, JSON.stringify. Both doors refuse such a value
// before it is decoded, naming the field it sits in.

/** arrays and objects inside each other, the body itself counting as one */
export const MAX_JSON_DEPTH = 64;

export const depthText = (path: readonly string[], max = MAX_JSON_DEPTH): string =>
  `${path.length ? path.map(quoted).join('.') : 'the body'} nests deeper than ${max} levels of arrays and objects`;

const KEYS_SHOWN = 3;

/**
 * The path (its first few keys) to a place where `value` nests deeper than `max` levels, or null
 * when it does not. Each container is visited once, from an explicit stack.
 */
export const deeperThan = (value: unknown, max: number): readonly string[] | null => {
  // the path names object keys only: it ends where an array begins, or after a few keys
  const stack: { v: unknown; depth: number; path: readonly string[]; named: boolean }[] = [{ v: value, depth: 1, path: [], named: true }];
  while (stack.length) {
    const { v, depth, path, named } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return path;
    const naming = named && !Array.isArray(v) && path.length < KEYS_SHOWN;
    for (const [k, child] of Object.entries(v)) {
      if (typeof child === 'object' && child !== null) stack.push({ v: child, depth: depth + 1, path: naming ? [...path, k] : path, named: naming });
    }
  }
  return null;
};
