import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { HARNESSES, type HarnessName } from '../../domain/workflow.js';
import { validEntry } from '../../commands/sandbox.js';
import type { ActivityReport } from '../harness/activity.js';
import type { TurnInput, TurnResult } from '../harness/adapter.js';

// What crosses NATS for a dispatched step (docs/workers.md), decoded at each door: the job a worker
// claims (serialised TurnInput: no callbacks, no token of the hub's), and what a worker sends back.
// A worker's text is data, never an instruction: a message that does not decode is not applied.

const Harness = t.keyof(Object.fromEntries(HARNESSES.map((h) => [h, null])) as Record<HarnessName, null>);
const Tools = t.keyof({ 'read-only': null, edit: null, full: null });
const Text = (max: number) => new t.Type<string, string, unknown>('Text', (u): u is string => typeof u === 'string' && u.length <= max,
  (u, c) => (typeof u === 'string' && u.length <= max ? t.success(u) : t.failure(u, c, `a string of at most ${max} characters`)), (s) => s);
const Id = new t.Type<string, string, unknown>('Id', (u): u is string => typeof u === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(u),
  (u, c) => (typeof u === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(u) ? t.success(u) : t.failure(u, c, 'an id')), (s) => s);
const AbsolutePath = new t.Type<string, string, unknown>('AbsolutePath', (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' && u.startsWith('/') && !u.split('/').includes('..') && !u.includes('\0') && u.length < 4096 ? t.success(u) : t.failure(u, c, 'an absolute path')), (s) => s);
const HostPattern = new t.Type<string, string, unknown>('HostPattern', (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' && u.length <= 300 && validEntry(u) ? t.success(u) : t.failure(u, c, 'a host pattern')), (s) => s);
const Sha = new t.Type<string, string, unknown>('Sha', (u): u is string => typeof u === 'string' && /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(u),
  (u, c) => (typeof u === 'string' && /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(u) ? t.success(u) : t.failure(u, c, 'a commit id')), (s) => s);
/** a URL a worker fetches a base from: https, ssh or git without a user part, `user@host:path`, or an absolute path */
export const isOrigin = (u: string): boolean => u.length <= 2000 && !/[\s\0]/.test(u) &&
  (/^(https?|ssh|git):\/\/[^@/]+\/[^@]*$/.test(u) || /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^-][^@]*$/.test(u) || (u.startsWith('/') && !u.split('/').includes('..')));

const Origin = new t.Type<string, string, unknown>('Origin', (u): u is string => typeof u === 'string' && isOrigin(u),
  (u, c) => (typeof u === 'string' && isOrigin(u) ? t.success(u) : t.failure(u, c, 'an origin URL')), (s) => s);
/** the commits a worker's object cache has, as it names them (object-cache.ts: at most MAX_TIPS; the door takes 64) */
const Have = t.refinement(t.array(Sha), (xs) => xs.length <= 64, 'Have');
const Token = t.refinement(t.number, (n) => Number.isInteger(n) && n >= 0, 'Token');

export const JobCodec = t.intersection([
  t.type({ runId: Id, stepId: Id, harness: Harness, cwd: AbsolutePath, prompt: Text(1_000_000), tools: Tools, watchdogMs: t.number }),
  // egress: what the project's steps may reach besides the model API (its allowlist, as the hub read it for this step)
  t.partial({ systemPrompt: Text(1_000_000), model: Text(200), resumeSession: Text(200), forkSession: t.boolean, egress: t.array(HostPattern),
    // attempt: the placement's number (a step redone elsewhere is the next); session: the hub has the resumed session's files to fetch
    // branchRun: the run whose branch the folder holds (a follow-up works on the branch of the run it continues)
    // history: the root commit naming the worker's object cache the code moves through (incremental bundles)
    // origin: where a worker with an empty cache may fetch the project's base itself
    branchRun: Id, history: Sha, origin: Origin, attempt: t.refinement(t.number, (n) => Number.isInteger(n) && n >= 0 && n < 1000, 'Attempt'), session: t.boolean }),
]);
export type Job = t.TypeOf<typeof JobCodec>;

/** the job of a turn: its input without callbacks, signal or the hub's run-tools token */
export const jobOf = (i: TurnInput, harness: HarnessName, egress: readonly string[]): Job => ({
  egress: [...egress],
  runId: i.runId, stepId: i.stepId, harness, cwd: i.cwd, prompt: i.prompt, tools: i.tools, watchdogMs: i.watchdogMs,
  ...(i.systemPrompt ? { systemPrompt: i.systemPrompt } : {}), ...(i.model ? { model: i.model } : {}),
  ...(i.resumeSession ? { resumeSession: i.resumeSession } : {}), ...(i.forkSession ? { forkSession: true } : {}),
});

const Started = t.intersection([
  t.type({ phase: t.literal('started'), callId: Text(500), tool: Text(500), kind: t.keyof({ read: null, edit: null, write: null, command: null, search: null, mcp: null, question: null, other: null }), title: Text(10_000) }),
  t.partial({ path: Text(4096), at: Text(100) }),
]);
const Ended = t.intersection([
  t.type({ phase: t.literal('ended'), callId: Text(500), status: t.keyof({ ok: null, error: null }) }),
  t.partial({ output: Text(1_000_000), exitCode: t.number, at: Text(100) }),
]);
const Result = t.intersection([
  t.type({ outcome: t.keyof({ success: null, failure: null, interrupted: null }), summary: Text(100_000) }),
  t.partial({ sessionId: Text(200), costUsd: t.number, usage: t.record(t.string, t.number), model: Text(200),
    failure: t.keyof({ quota: null, unavailable: null, watchdog: null, error: null }) }),
]);

/** what a worker sends about the step it holds, on svc.w.<its id>.out.<step id> */
export const OutCodec = t.intersection([t.type({ token: Token }), t.union([
  t.type({ kind: t.literal('log'), text: Text(1_000_000) }),
  t.type({ kind: t.literal('activity'), report: t.union([Started, Ended]) }),
  t.type({ kind: t.literal('message'), text: Text(1_000_000) }),
  t.type({ kind: t.literal('session'), sessionId: Text(200) }),
  t.type({ kind: t.literal('bundle'), index: Token, data: Text(1_000_000) }),
  t.type({ kind: t.literal('sessionPart'), index: Token, data: Text(1_000_000) }),
  // chunks: the work's bundle parts; sessionChunks: the session's files' parts (sessions move)
  t.intersection([t.type({ kind: t.literal('result'), result: Result, chunks: Token }), t.partial({ sessionChunks: Token })]),
])]);
export type Out = t.TypeOf<typeof OutCodec>;

/** the hub to a worker about a step it runs (svc.to.<worker>.<step>): stop its CLI (paused, aborted), or a message mid-turn */
export const ControlCodec = t.union([t.type({ kind: t.literal('stop') }), t.type({ kind: t.literal('message'), text: Text(1_000_000) })]);
export type Control = t.TypeOf<typeof ControlCodec>;

/**
 * a claim, a bundle part, a run-tools call: the step and the claim the worker speaks for; `have`
 * (a bundle part): the commits its object cache has, so the bundle holds only what is new since them
 */
export const AskCodec = t.intersection([t.type({ stepId: Id, token: Token }), t.partial({ index: Token, body: Text(10_000_000), have: Have })]);
export type Ask = t.TypeOf<typeof AskCodec>;

const parse = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
};

/** the decoded message, or why it did not decode */
export const decodeWith = <A>(codec: t.Decoder<unknown, A>, bytes: Uint8Array, what: string): A | string => {
  const d = codec.decode(parse(bytes));
  return isLeft(d) ? `${what} does not decode` : d.right;
};

// the decoded types are the adapter's own, field for field (checked here, so they cannot drift)
export const asReport = (r: Extract<Out, { kind: 'activity' }>['report']): ActivityReport => r;
export const asResult = (r: Extract<Out, { kind: 'result' }>['result']): TurnResult => r;

/**
 * A worker's message's id in SVC_OUT (its Nats-Msg-Id): `<step>.<token>.<n>`, so a re-sent one is
 * stored once; the hub records it applied under the worker's id, `<worker>.<step>.<token>.<n>`.
 */
export const outMessageId = (stepId: string, token: number, n: number): string => `${stepId}.${token}.${n}`;
export const appliedIdOf = (workerId: string, messageId: string): string => `${workerId}.${messageId}`;
/** the step an applied id is about (undefined for a message that came without an id) */
export const stepOfAppliedId = (id: string): string | undefined => {
  const parts = id.split('.');
  return parts.length === 4 ? parts[1] : undefined;
};
