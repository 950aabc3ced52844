import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideAbort } from '../../commands/abort.js';
import { decideArchive } from '../../commands/archive.js';
import { decideKeepAttempt, type Sibling } from '../../commands/keep-attempt.js';
import { conflict, notFound, type Outcome, type Refusal } from '../../commands/refusal.js';
import type { RunState } from '../../projections/run-state.js';
import { isGoing } from '../../projections/standing.js';
import type { Actor, StartedAttempt, StartRunInput } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { type ServiceCore } from './core.js';
import { detailOf } from '../read-models/run-detail.js';
import { liveInChain } from './follow-ups.js';
import { prepareRun, type PreparedRun } from './prepare-run.js';
import { keepingOthers, type KeepKeeping } from './keeping.js';
import { parts, transactTogether } from '../state/together.js';

// One goal on several agents at once (POST /api/runs `attempts`, start_run), and "Keep this one".
// The siblings share everything but their harness and model; each journal records its place in the
// group (RunCreated `attempt`), so the board and compare read the group from the runs themselves.

/** Every attempt is decided before any is recorded: one that cannot start (a harness not ready,
 * an undeclared input) refuses the whole group, and no run is made. */
export const startAttempts = (core: ServiceCore, input: StartRunInput, by: Actor): Outcome<{ runId: string; attempts: readonly StartedAttempt[] }> => {
  const agents = input.attempts ?? [];
  const group = core.newId('g');
  const prepared: PreparedRun[] = [];
  for (const [index, agent] of agents.entries()) {
    const { attempts: _all, ...one } = input;
    const p = prepareRun(core, { ...one, ...agent }, by, core.newId('r'), { attempt: { group, index, of: agents.length } });
    if (isLeft(p)) return left(p.left);
    prepared.push(p.right);
  }
  // one journal transaction: a crash leaves the whole group or none of it
  const made = transactTogether<Refusal>(core.journal, () => parts(...prepared.map((p) => core.runs.plan(p.runId, () => right([...p.events]), 0))), { at: core.now().toISOString(), onStale: 'refuse' });
  if (isLeft(made)) return made;
  if (made.right._tag === 'Stale') return left(conflict('a run id of the group was taken meanwhile; start the attempts again'));
  const attempts = prepared.map((p, i) => ({ runId: p.runId, ...agents[i]! }));
  return right({ runId: attempts[0]!.runId, attempts });
};

/** the runs of an attempt group, in attempt order (a scan: keeping and comparing are rare) */
export const groupRuns = (core: ServiceCore, group: string): RunState[] =>
  [...core.runs.all()].filter((r) => r.attempt?.group === group).sort((a, b) => a.attempt!.index - b.attempt!.index);

const siblingOf = (core: ServiceCore, r: RunState): Sibling => {
  const live = r.lifecycle === 'ended' ? liveInChain(core, r) : null;
  return { runId: r.runId, harness: r.harnessOverride ?? r.harness ?? null, going: isGoing(r), liveFollowUp: live !== r.runId ? live : null };
};

const TURN_END_WAIT_MS = 30_000;

// An aborted attempt's CLI is stopped through its turn's abort signal; its worktree is removed
// only once that turn has ended, so no agent is left writing into a folder being deleted.
const turnsEnded = async (core: ServiceCore, stepIds: readonly string[]): Promise<void> => {
  const until = Date.now() + TURN_END_WAIT_MS;
  while (stepIds.some((id) => core.turns.isLive(id)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
};

const abortSibling = (core: ServiceCore, r: RunState, c: { at: string; by: Actor; reason: string }): string | null => {
  const step = core.runs.get(r.runId)?.step?.stepId ?? null;
  core.runs.transact(r.runId, (now) => (now && isGoing(now) ? decideAbort(now, c) : right([])), { at: c.at, onStale: 'retry' });
  return step;
};

const archiveSibling = (core: ServiceCore, r: RunState, c: { at: string; by: Actor; reason: string }) =>
  core.runs.plan(r.runId, (now) => (now ? decideArchive(now, { ...c, state: 'Archived' }) : right([])));

const othersOf = (core: ServiceCore, s: RunState): RunState[] =>
  s.attempt ? groupRuns(core, s.attempt.group).filter((r) => r.runId !== s.runId && !r.archived) : [];

/** what keeping the run would archive, and what archiving keeps of each (GET /api/runs/{id}/keep) */
export const keepKeeping = async (core: ServiceCore, runId: string): Promise<Outcome<KeepKeeping>> => {
  const s = core.runs.get(runId);
  return s ? right(await keepingOthers(runId, othersOf(core, s))) : left(notFound('run', runId));
};

export const keepAttempt = async (core: ServiceCore, runId: string, abortOthers: boolean, reason: string | undefined, by: Actor): Promise<Outcome<{ run: RunDetail; archived: readonly string[]; kept: string }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const others = othersOf(core, s);
  const at = core.now().toISOString();
  const c = { at, by, ...(reason !== undefined ? { reason } : {}) };
  const decide = (now: RunState) => decideKeepAttempt(now, { ...c, others: others.map((o) => siblingOf(core, core.runs.get(o.runId) ?? o)), abortOthers });
  const probe = decide(s);
  if (isLeft(probe)) return probe;
  // said before anything moves: what the archive of each other attempt keeps (read from its folders now)
  const kept = (await keepingOthers(runId, others)).text;
  const why = { at, by, reason: reason ?? `attempt ${runId} was kept` };
  const steps = others.filter((r) => isGoing(r)).map((r) => abortSibling(core, r, why)).filter((id): id is string => id !== null);
  await turnsEnded(core, steps);
  // the archives and the keep in one journal transaction: a crash leaves all of them or none
  const r = transactTogether<Refusal>(core.journal, () => parts(
    ...others.map((o) => archiveSibling(core, o, why)),
    core.runs.plan(runId, (now) => (now ? decide(now) : left(notFound('run', runId)))),
  ), { at, onStale: 'retry' });
  if (isLeft(r)) return r;
  return right({ run: detailOf(core, core.runs.get(runId) ?? s), archived: others.map((o) => o.runId), kept });
};
