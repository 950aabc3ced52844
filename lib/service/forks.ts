import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideFork } from '../../commands/fork.js';
import { notFound, type Outcome } from '../../commands/refusal.js';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import type { Actor, ForkInput, StartRunInput } from '../../domain/runs.js';
import { RUN_KIND, runStream } from '../state/run-stream.js';
import type { ServiceCore } from './core.js';
import { startRefusal } from './start-readiness.js';

// POST /api/runs/{id}/forks and fork_run: fold the source's journal up to the step end, decide,
// and write the fork's first events in ONE append. That append is the fork: a crash before it
// leaves nothing, a crash after it leaves a queued run whose worktrees the engine makes from the
// snapshots when it gets a slot (idempotently, so a crash there is redone on restart).

/** The run as it stood right after event `seq`: its journal read and folded up to there. */
export const stateAt = (core: ServiceCore, runId: string, seq: number): RunState | undefined => {
  let s: RunState | null = null;
  for (const raw of core.journal.read(runStream(runId), 1, seq)) {
    const d = decodeStored<RunEvent>(RUN_EVENT_CODECS, raw);
    s = isUnreadable(d) ? RUN_KIND.unreadable(s, d, runId) : RUN_KIND.evolve(s, d, runId);
  }
  return s ?? undefined;
};

export const fork = (core: ServiceCore, runId: string, input: ForkInput, by: Actor): Outcome<{ runId: string }> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const isEnd = s.stepEnds?.some((e) => e.at === input.at) ?? false;
  const then = (isEnd ? stateAt(core, runId, input.at) : undefined) ?? s;
  const newRunId = core.newId('r');
  const { at: atSeq, ...asked } = input;
  const d = decideFork(s, { at: core.now().toISOString(), by, newRunId, atSeq, then, ...asked });
  if (isLeft(d)) return d;
  const project = core.projects.current.get(s.projectId);
  if (!project) return left(notFound('project', s.projectId));
  const created = d.right[0]!;
  const harness = created.type === 'RunCreated' ? created.data.harness : undefined;
  const asStart: StartRunInput = { project: s.projectId, goal: then.goal, ...(harness ? { harness } : {}) };
  const notReady = startRefusal(core, project, s.workflow, asStart);
  if (notReady) return left(notReady);
  core.probe?.('fork:before-append');
  core.runs.transact(newRunId, () => d, { at: core.now().toISOString(), onStale: 'refuse', expected: 0 });
  core.probe?.('fork:after-append');
  return right({ runId: newRunId });
};
