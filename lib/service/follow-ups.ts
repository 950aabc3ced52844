import { existsSync } from 'node:fs';
import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { continuesOf, decideFollowUp, type FollowUp } from '../../commands/follow-up.js';
import { decideCreateRun, titleFrom } from '../../commands/create-run.js';
import { conflict, notFound, type Outcome, type Refusal } from '../../commands/refusal.js';
import type { RunState } from '../../projections/run-state.js';
import { reuseDecision, type Decision } from '../../commands/guards.js';
import type { Actor, FollowUpWhat, StartRunInput } from '../../domain/runs.js';
import { followUpWorkflow } from '../workflows/follow-up.js';
import { parts, transactTogether } from '../state/together.js';
import type { ServiceCore } from './core.js';
import { startRefusal } from './start-readiness.js';

// POST /api/runs/{id}/follow-ups and follow_up_run: read what the rule needs (the chain's runs,
// whether the worktrees are still on disk), then make the new run and record the link on the old
// one in one journal transaction: both sides or neither, across a crash too.

const rootOf = (core: ServiceCore, s: RunState): RunState => {
  let at = s;
  for (let hops = 0; at.continues && hops < 1000; hops++) {
    const up = core.runs.get(at.continues.runId);
    if (!up) break;
    at = up;
  }
  return at;
};

/** the first run of the chain (the root and every follow-up of it, at any depth) that has not ended */
export const liveInChain = (core: ServiceCore, s: RunState): string | null => {
  const todo = [rootOf(core, s)];
  const seen = new Set<string>();
  while (todo.length > 0) {
    const r = todo.shift()!;
    if (seen.has(r.runId)) continue;
    seen.add(r.runId);
    if (r.lifecycle !== 'ended') return r.runId;
    for (const id of r.continuedBy ?? []) {
      const next = core.runs.get(id);
      if (next) todo.push(next);
    }
  }
  return null;
};

const checkoutsOf = (s: RunState) => s.checkouts ?? s.continues?.checkouts ?? [];

const commandOf = (core: ServiceCore, s: RunState, newRunId: string, by: Actor, reason: string | undefined): FollowUp => ({
  at: core.now().toISOString(), by, ...(reason !== undefined ? { reason } : {}), newRunId,
  liveInChain: liveInChain(core, s), worktreesPresent: checkoutsOf(s).every((c) => existsSync(c.directory)),
});

/** what else the run it continues records in the same transaction (a review sent to an ended run) */
export type AlsoOnSource = (now: RunState, newRunId: string) => Decision;

const onSource = (core: ServiceCore, now: RunState, newRunId: string, by: Actor, what: FollowUpWhat, also?: AlsoOnSource): Decision => {
  const linked = decideFollowUp(now, commandOf(core, now, newRunId, by, what.reason));
  if (isLeft(linked) || !also) return linked;
  const more = also(now, newRunId);
  return isLeft(more) ? more : right([...linked.right, ...more.right]);
};

export const followUp = (core: ServiceCore, runId: string, what: FollowUpWhat, by: Actor, also?: AlsoOnSource): Outcome<{ runId: string }> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const newRunId = core.newId('r');
  const linked = onSource(core, s, newRunId, by, what, also);
  if (isLeft(linked)) return linked;
  const text = 'text' in what ? what.text : what.review;
  const continues = continuesOf(s);
  // the harness of the session it resumes, so the same CLI picks the conversation up
  const harness = continues.session?.harness ?? s.harnessOverride ?? s.harness;
  const input: StartRunInput = {
    project: s.projectId, goal: text, title: 'title' in what && what.title ? titleFrom(what.title) : titleFrom(`Follow-up: ${text}`), workflow: 'follow-up',
    ...(harness ? { harness } : {}), ...(s.model && harness === (s.harnessOverride ?? s.harness) ? { model: s.model } : {}), ...(what.reason ? { reason: what.reason } : {}),
  };
  const project = core.projects.current.get(s.projectId);
  if (!project) return left(notFound('project', s.projectId));
  const workflow = followUpWorkflow(s.workflow);
  const d = decideCreateRun({ runId: newRunId, projectId: s.projectId, workflow, input, by, continues });
  if (isLeft(d)) return d;
  const notReady = startRefusal(core, project, workflow, input);
  if (notReady) return left(notReady);
  core.probe?.('follow-up:before-append');
  // the new run and the link on the old one in ONE transaction: "one live follow-up per chain"
  // reads the link, so a crash must never leave the new run without it
  const made = transactTogether<Refusal>(core.journal, () => parts(
    core.runs.plan(newRunId, () => d, 0),
    core.runs.plan(runId, (now) => (now ? reuseDecision(s, linked, (moved) => onSource(core, moved, newRunId, by, what, also))(now) : left(notFound('run', runId)))),
  ), { at: core.now().toISOString(), onStale: 'retry' });
  if (isLeft(made)) return made;
  if (made.right._tag === 'Stale') return left(conflict(`run ${runId} kept changing while the follow-up was made; ask again`));
  core.probe?.('follow-up:after-append');
  return right({ runId: newRunId });
};
