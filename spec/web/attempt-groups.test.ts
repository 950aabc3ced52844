import test from 'ava';
import type { BoardRow } from '../../lib/web/data/runs-index.js';
import { collapseAttempts, groupOfCard } from '../../lib/web/pages/runs/attempt-groups.js';

// The board's attempts cards: the runs of one group are one card, in attempt order, standing where
// their most pressing attempt stands. Pure: what the Runs page renders.

const run = (runId: string, o: Partial<BoardRow> = {}): BoardRow => ({
  runId, title: runId, workflowName: 'linear', goal: 'g', project: 'p1', standing: 'Succeeded', phase: 'Ended',
  currentStep: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', archived: false, resolved: false, queuePriority: 0,
  position: 'v1', canMoveToFront: false, canStart: false, startedAt: null, endedAt: null, harness: null, endReason: null, costUsd: 0, unknownTurns: 0, ...o,
});
const attempt = (index: number, group = 'g1') => ({ attempt: { group, index, of: 3, kept: false, costUsd: null } });

test('a group is one card, its attempts in order; a run outside any group is a card of its own', (t) => {
  const a = run('a', attempt(0));
  const b = run('b', attempt(1));
  const c = run('c', attempt(2));
  const lone = run('z');
  const g = collapseAttempts([c, lone, a, b]);
  t.is(g.cards.length, 2);
  const card = g.cards.find((r) => r.attempt)!;
  t.deepEqual(groupOfCard(g, card)?.map((r) => r.runId), ['a', 'b', 'c']);
  t.is(groupOfCard(g, lone), undefined);
});

test('the card stands where its most pressing attempt is: a failure nobody resolved before one at work before a success', (t) => {
  const done = run('a', { ...attempt(0), standing: 'Succeeded' });
  const going = run('b', { ...attempt(1), standing: 'Running', phase: 'Executing' });
  const failed = run('c', { ...attempt(2), standing: 'Failed' });
  t.is(collapseAttempts([done, going, failed]).cards[0]!.runId, 'c');
  t.is(collapseAttempts([done, going]).cards[0]!.runId, 'b');
  t.is(collapseAttempts([done, run('d', { ...attempt(1), standing: 'Failed', resolved: true })]).cards[0]!.runId, 'a', 'a resolved failure is done, like a success: the first attempt stands');
});

test('two groups are two cards', (t) => {
  const g = collapseAttempts([run('a', attempt(0, 'g1')), run('b', attempt(1, 'g1')), run('c', attempt(0, 'g2')), run('d', attempt(1, 'g2'))]);
  t.is(g.cards.length, 2);
  t.deepEqual([...g.groups.keys()].sort(), ['g1', 'g2']);
});

test('a follow-up of an attempt stands for it in the group (the board shows a chain by its latest run)', (t) => {
  const a = run('a', attempt(0));
  const b = run('b', attempt(1));
  const next = run('b2', { chain: 'b', standing: 'Running', phase: 'Executing' });
  const g = collapseAttempts([a, next], (r) => r.attempt ?? (r.chain === 'b' ? b.attempt : undefined));
  t.is(g.cards.length, 1);
  t.deepEqual(groupOfCard(g, g.cards[0]!)?.map((r) => r.runId), ['a', 'b2']);
});
