import test from 'ava';
import { needsOf, type NeedsFacts } from '../../projections/needs-you.js';

// The one rule for "needs you" (board group, tab count, browser notifications, notification command).

const base: NeedsFacts = { standing: 'Running', phase: 'Executing', resolved: false, archived: false };

const ROWS: readonly (readonly [string, Partial<NeedsFacts>, { kind: string; label: string } | null])[] = [
  ['running', {}, null],
  ['a question', { standing: 'Question', phase: 'AwaitingAnswer' }, { kind: 'question', label: 'Question' }],
  ['a gate', { standing: 'Paused', phase: 'AtGate' }, { kind: 'gate', label: 'At a gate' }],
  ['failed, not resolved', { standing: 'Failed', phase: 'Ended' }, { kind: 'failed', label: 'Failed' }],
  ['failed and resolved', { standing: 'Failed', phase: 'Ended', resolved: true }, null],
  ['its budget', { standing: 'Paused', phase: 'Paused', pausedBy: 'engine', pauseReason: 'budget: spent $2.00 of $1.00 budget' }, { kind: 'paused', label: 'Budget reached' }],
  ['a harness problem', { standing: 'Paused', phase: 'Paused', pausedBy: 'engine', pauseReason: 'harness problem: claude is not installed' }, { kind: 'paused', label: 'Harness problem' }],
  ['the cycle limit', { standing: 'Paused', phase: 'Paused', pausedBy: 'engine', pauseReason: 'the pull request loop used its 3 cycle(s) and …' }, { kind: 'paused', label: 'Cycle limit reached' }],
  ['paused by a person', { standing: 'Paused', phase: 'Paused', pausedBy: 'person', pauseReason: 'budget: looks like ours' }, null],
  ['paused by a supervisor', { standing: 'Paused', phase: 'Paused', pausedBy: 'supervisor' }, null],
  ['a card on a running run', { cards: 1 }, { kind: 'card', label: 'Supervisor card' }],
  ['a card on a succeeded run', { standing: 'Succeeded', phase: 'Ended', cards: 1 }, null],
  ['a question on an archived run', { standing: 'Question', archived: true }, null],
  ['a question and a card: the question', { standing: 'Question', cards: 2 }, { kind: 'question', label: 'Question' }],
];

for (const [name, facts, needs] of ROWS) {
  test(`${name} → ${needs ? needs.label : 'not needed'}`, (t) => {
    t.deepEqual(needsOf({ ...base, ...facts }), needs);
  });
}
