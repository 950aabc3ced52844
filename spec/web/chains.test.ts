import test from 'ava';
import type { BoardRow } from '../../lib/web/data/runs-index.js';
import { attemptsOf, collapseChains } from '../../lib/web/pages/runs/chains.js';

// The board's cards: a run and its follow-ups collapse to their latest attempt, with every attempt kept.

const run = (runId: string, createdAt: string, o: Partial<BoardRow> = {}): BoardRow => ({
  runId, title: runId, workflowName: 'linear', goal: 'g', project: 'p1', standing: 'Succeeded', phase: 'Ended',
  currentStep: null, createdAt, updatedAt: createdAt, archived: false, resolved: false, queuePriority: 0,
  position: 'v1', canMoveToFront: false, canStart: false, startedAt: null, endedAt: null, harness: null, endReason: null, costUsd: 0, unknownTurns: 0, ...o,
});

test('a chain is one card: its latest attempt, with the attempts oldest first', (t) => {
  const a = run('a', '2026-01-01T00:00:00Z');
  const b = run('b', '2026-01-02T00:00:00Z', { chain: 'a', standing: 'Running' });
  const c = run('c', '2026-01-03T00:00:00Z', { chain: 'a', standing: 'Failed' });
  const lone = run('z', '2026-01-01T12:00:00Z');
  const collapsed = collapseChains([c, lone, a, b]);
  t.deepEqual(collapsed.latest.map((r) => r.runId).sort(), ['c', 'z']);
  t.deepEqual(attemptsOf(collapsed, c)?.map((r) => r.runId), ['a', 'b', 'c']);
  t.is(attemptsOf(collapsed, lone), undefined, 'a run never followed up is a card of its own, without attempts');
});

test('a chain whose first run is not on the board (archived) still collapses', (t) => {
  const b = run('b', '2026-01-02T00:00:00Z', { chain: 'a' });
  const c = run('c', '2026-01-03T00:00:00Z', { chain: 'a' });
  const collapsed = collapseChains([b, c]);
  t.deepEqual(collapsed.latest.map((r) => r.runId), ['c']);
  t.deepEqual(attemptsOf(collapsed, c)?.map((r) => r.runId), ['b', 'c']);
});
