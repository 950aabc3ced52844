import { quoted } from '../../domain/quoted.js';

// No text svc takes may hold a NUL byte: what people and agents send reaches spawn (arguments, the
// environment of command steps), git, file paths and HTTP headers, and none of them takes one
// (Node's spawn throws on it). Both doors refuse it before any decoder runs, wherever it sits.
// The walk keeps its own stack, so a value nested 20,000 levels deep is no deeper a call stack.

const MAX_NODES = 1_000_000;

/** where the first NUL byte sits in a JSON value ("goal", "inputs.ticket", "argv.1"), or null */
export const nulPath = (value: unknown): string | null => {
  const todo: [unknown, string][] = [[value, '']];
  for (let seen = 0; todo.length > 0 && seen < MAX_NODES; seen++) {
    const [v, path] = todo.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path || 'the body';
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, x] of Object.entries(v)) {
      const at = path === '' ? quoted(k) : `${path}.${quoted(k)}`;
      if (k.includes('\u0000')) return `the name of ${at.replace('\u0000', '\\u0000')}`;
      todo.push([x, at]);
    }
  }
  return null;
};

export const nulRefusal = (path: string): string => `${path} holds a NUL byte (\\u0000), which no text svc takes may hold`;
