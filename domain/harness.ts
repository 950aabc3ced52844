// What the decides know of an agent CLI: whether it is ready to start a turn, and the running
// totals a CLI reports for its session (lib/harness/adapter.ts is the adapters' side).

export type Availability =
  | { readonly _tag: 'Ready'; readonly version?: string }
  /** missing: the binary was not there at all (not: there, but `--version` failed) */
  | { readonly _tag: 'NotInstalled'; readonly detail: string; readonly missing?: true }
  | { readonly _tag: 'NotLoggedIn'; readonly detail: string }
  | { readonly _tag: 'QuotaExhausted'; readonly detail: string; readonly resetsAt?: string };

/**
 * What a CLI reports as its session's running totals, where it reports those rather than the
 * turn's own share (claude's cost, codex's tokens): journaled with the turn, given back as
 * TurnInput.sessionTotals when the session resumes (lib/harness/session-totals.ts).
 */
export interface SessionTotals {
  readonly costUsd?: number;
  readonly usage?: Readonly<Record<string, number>>;
}
