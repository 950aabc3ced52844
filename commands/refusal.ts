import type { Either } from 'fp-ts/lib/Either.js';
import { quoted } from '../domain/quoted.js';

// Every way a command or a read can be refused. One table (lib/http/refusal-status.ts and
// lib/mcp/refusal-text.ts) maps each to an HTTP status and to an MCP error text.
export type Refusal =
  | { readonly _tag: 'NotFound'; readonly what: string; readonly id: string }
  | { readonly _tag: 'Invalid'; readonly detail: string }
  | { readonly _tag: 'NotAllowed'; readonly action: string; readonly allowed: readonly string[] }
  | { readonly _tag: 'Ended'; readonly detail: string }
  | { readonly _tag: 'Conflict'; readonly detail: string }
  | { readonly _tag: 'Unavailable'; readonly detail: string }
  /** a supervisor's scoping rule says no (commands/supervisor-*.ts) */
  | { readonly _tag: 'Forbidden'; readonly detail: string };

export const notFound = (what: string, id: string): Refusal => ({ _tag: 'NotFound', what, id });
export const invalid = (detail: string): Refusal => ({ _tag: 'Invalid', detail });
export const notAllowed = (action: string, allowed: readonly string[]): Refusal => ({ _tag: 'NotAllowed', action, allowed });
export const ended = (detail: string): Refusal => ({ _tag: 'Ended', detail });
export const conflict = (detail: string): Refusal => ({ _tag: 'Conflict', detail });
export const unavailable = (detail: string): Refusal => ({ _tag: 'Unavailable', detail });
export const forbidden = (detail: string): Refusal => ({ _tag: 'Forbidden', detail });

export const refusalText = (r: Refusal): string => {
  switch (r._tag) {
    case 'NotFound': return `unknown ${r.what}: ${quoted(r.id)}`;
    case 'Invalid': return r.detail;
    case 'NotAllowed': return `${r.action} is not allowed now; allowed actions: ${r.allowed.length ? r.allowed.join(', ') : 'none'}`;
    case 'Ended': return r.detail;
    case 'Conflict': return r.detail;
    case 'Unavailable': return r.detail;
    case 'Forbidden': return r.detail;
  }
};

// Commands, reads and the service facade all answer Either<Refusal, T> (fp-ts).
export type Outcome<T> = Either<Refusal, T>;
