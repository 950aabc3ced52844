import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideMoveRun } from '../../commands/move-run.js';
import { notFound, type Outcome } from '../../commands/refusal.js';
import type { Actor } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { detailOf } from '../read-models/run-detail.js';
import type { ServiceCore } from './core.js';
import { workerFact } from './projects.js';

// "Move to…" (docs/workers.md): gather what the decide needs (the run, the worker named), ask it
// once, record it in the 'placement' journal. The pool reads the pin at the run's next dispatch.

export const moveRun = (core: ServiceCore, runId: string, to: string, by: Actor): Outcome<{ run: RunDetail; to: string }> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const worker = workerFact(core, to);
  const d = core.placement.transact((pins) => decideMoveRun(pins, { runId, to, ended: s.lifecycle === 'ended', by, ...(worker ? { worker } : {}) }),
    { at: core.now().toISOString(), onStale: 'retry' });
  if (isLeft(d)) return d;
  return right({ run: detailOf(core, core.runs.get(runId) ?? s), to });
};
