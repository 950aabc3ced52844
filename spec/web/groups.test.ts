import test from 'ava';
import type { BoardRow } from '../../lib/web/data/runs-index.js';
import { filtersFrom, filtersQuery, groupOf, groupRuns, needsReason } from '../../lib/web/pages/runs/groups.js';

// The Runs page's triage, as a pure function of the board rows and the filters.

let n = 0;
const run = (o: Partial<BoardRow>): BoardRow => ({
  runId: `r${String(++n).padStart(4, '0')}`, title: 't', workflowName: 'linear', goal: 'g', project: 'p1', standing: 'Running', phase: 'Executing',
  currentStep: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', archived: false, resolved: false, queuePriority: 0,
  position: 'v1', canMoveToFront: false, canStart: false, startedAt: null, endedAt: null, harness: null, endReason: null, costUsd: 0, unknownTurns: 0, ...o,
});

test('each standing goes to its triage group', (t) => {
  t.is(groupOf(run({ standing: 'Question', phase: 'AwaitingAnswer' })), 'needs');
  t.is(groupOf(run({ standing: 'Paused', phase: 'AtGate' })), 'needs');
  t.is(groupOf(run({ standing: 'Failed', phase: 'Ended' })), 'needs');
  t.is(groupOf(run({ standing: 'Failed', phase: 'Ended', resolved: true })), 'done', 'a resolved failure is done');
  t.is(groupOf(run({ standing: 'Paused', phase: 'Paused' })), 'active', 'paused by a person');
  t.is(groupOf(run({ standing: 'Waiting', phase: 'Waiting' })), 'active');
  t.is(groupOf(run({ standing: 'Running' })), 'active');
  t.is(groupOf(run({ standing: 'Queued', phase: 'Queued' })), 'queued');
  t.is(groupOf(run({ standing: 'Created', phase: 'Created' })), 'queued');
  t.is(groupOf(run({ standing: 'Succeeded', phase: 'Ended' })), 'done');
  t.is(groupOf(run({ standing: 'Aborted', phase: 'Ended' })), 'done');
  t.is(needsReason(run({ standing: 'Paused', phase: 'AtGate' })), 'At a gate');
  t.is(needsReason(run({ standing: 'Running' })), null);
});

test('queued runs in queue order, then runs not started newest first; other groups newest change first', (t) => {
  const late = run({ standing: 'Queued', queuePriority: 300 });
  const moved = run({ standing: 'Queued', queuePriority: -5 });
  const early = run({ standing: 'Queued', queuePriority: 100 });
  const c1 = run({ standing: 'Created' });
  const c2 = run({ standing: 'Created' });
  const old = run({ standing: 'Succeeded', updatedAt: '2026-01-01T00:00:00Z' });
  const fresh = run({ standing: 'Succeeded', updatedAt: '2026-01-02T00:00:00Z' });
  const g = groupRuns([late, c1, old, moved, c2, early, fresh], filtersFrom(new URLSearchParams()));
  t.deepEqual(g.queued, [moved, early, late, c2, c1]);
  t.deepEqual(g.done, [fresh, old]);
});

test('filters: project, workflow, standing, text over title, goal and id; archived only on request', (t) => {
  const a = run({ title: 'Fix the Parser', project: 'p1' });
  const b = run({ goal: 'make the PARSER faster', project: 'p2', workflowName: 'strict' });
  const c = run({ title: 'other', standing: 'Succeeded' });
  const d = run({ title: 'parser, archived', archived: true });
  const all = [a, b, c, d];
  const rows = (q: string) => Object.values(groupRuns(all, filtersFrom(new URLSearchParams(q)))).flat();
  t.deepEqual(rows('q=parser').map((r) => r.runId).sort(), [a.runId, b.runId]);
  t.deepEqual(rows('q=parser&archived=1').length, 3);
  t.deepEqual(rows(`q=${c.runId}`), [c]);
  t.deepEqual(rows('project=p2'), [b]);
  t.deepEqual(rows('workflow=strict'), [b]);
  t.deepEqual(rows('standing=Succeeded'), [c]);
  t.is(filtersQuery(filtersFrom(new URLSearchParams('q=x&archived=1&project=p1'))), '?project=p1&q=x&archived=1');
  t.is(filtersQuery(filtersFrom(new URLSearchParams())), '');
});
