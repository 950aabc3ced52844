import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decideHeld } from '../../commands/supervisor-held.js';
import { decideChangeSupervisor, decideCreateSupervisor, decideKeepNotes, decideRecordCost, decideRegenerateKey, type SupervisorDecision } from '../../commands/supervisor-settings.js';
import type { SupervisorEvent } from '../../journal/supervisor-events.js';
import { evolveSupervisor, type SupervisorState } from '../../projections/supervisor.js';
import { DEFAULT_SUPERVISOR_SETTINGS } from '../../domain/supervisor.js';
import { decider } from '../helpers/given.js';

// given(supervisor events) / when(command) / then(events or refusal), for the records' decides.

const source = { via: 'http' as const, sender: 'tester' };
const at = '2026-11-20T10:00:00.000Z';
const created: SupervisorEvent = { type: 'SupervisorCreated', data: { supervisorId: 's1', project: 'p1', source } };

const given = (...events: SupervisorEvent[]): SupervisorState => {
  let s: SupervisorState | null = null;
  events.forEach((e, i) => { s = evolveSupervisor(s, e, at, i + 1); });
  if (!s) throw new Error('given() starts with SupervisorCreated');
  return s;
};

const then = (d: SupervisorDecision): string[] | string => (isRight(d) ? d.right.map((e) => e.type) : `${d.left._tag}: ${'detail' in d.left ? d.left.detail : ''}`);

test('creating: a project supervisor, the global one under its fixed id, and refusals', (t) => {
  const ok = decideCreateSupervisor({ supervisorId: 's9', project: 'p1', projectExists: true, existing: null, source });
  t.deepEqual(isRight(ok) && ok.right, [{ type: 'SupervisorCreated', data: { supervisorId: 's9', project: 'p1', source } }]);
  const global = decideCreateSupervisor({ supervisorId: 's9', project: null, projectExists: false, existing: null, source });
  t.true(isRight(global) && global.right[0]!.type === 'SupervisorCreated' && global.right[0]!.data.supervisorId === 'global');
  const unknown = decideCreateSupervisor({ supervisorId: 's9', project: 'nope', projectExists: false, existing: null, source });
  t.true(isLeft(unknown) && unknown.left._tag === 'NotFound');
  t.regex(String(then(decideCreateSupervisor({ supervisorId: 's9', project: 'p1', projectExists: true, existing: 's1', source }))), /^Conflict: project p1 has a supervisor already \(s1\)/);
});

test('a new supervisor has the safe defaults: every action AskFirst, enabled, not paused', (t) => {
  const s = given(created);
  t.deepEqual(s.settings, DEFAULT_SUPERVISOR_SETTINGS);
  t.deepEqual(Object.values(s.settings.actions), ['AskFirst', 'AskFirst', 'AskFirst', 'AskFirst', 'AskFirst']);
});

const change = decider((events: readonly SupervisorEvent[]) => given(...events), (s: SupervisorState, patch: Parameters<typeof decideChangeSupervisor>[1]['patch']) => decideChangeSupervisor(s, { supervisorId: 's1', patch, source }));

// 'changed': the whole SupervisorChanged event, carrying the patch as given and its source
const CHANGES: readonly { when: Parameters<typeof decideChangeSupervisor>[1]['patch']; then: 'changed' | 'nothing' | RegExp }[] = [
  { when: { runCap: 3 }, then: 'changed' },
  { when: { runCap: 2 }, then: 'nothing' }, // the value it has: a repeated command changes nothing
  { when: {}, then: 'nothing' },
  { when: { actions: { startRuns: 'DoIt' } }, then: 'changed' },
  { when: { runCap: -1 }, then: /runCap must be a whole number from 0 to 64/ },
  { when: { runCap: 1.5 }, then: /runCap/ },
  { when: { dailyLimitUsd: -0.01 }, then: /dailyLimitUsd/ },
  { when: { dailyLimitUsd: Number.NaN }, then: /dailyLimitUsd/ },
  { when: { quotaFallbacks: ['codex', 'codex'] }, then: /twice/ },
  { when: { model: 'm1' }, then: /model needs harness/ },
  { when: { harness: 'codex', model: '  ' }, then: /non-blank/ },
  { when: { harness: 'codex', model: 'gpt-5' }, then: 'changed' },
];

for (const row of CHANGES) {
  test(`given a supervisor, when changed by ${JSON.stringify(row.when)}, then ${String(row.then)}`, (t) => {
    const when = change(t).given(created).when(row.when);
    if (row.then === 'changed') when.then({ type: 'SupervisorChanged', data: { patch: row.when, source } });
    else if (row.then === 'nothing') when.thenNothing();
    else when.thenRefused('Invalid', row.then);
  });
}

test('a change records its source, and folds into the settings', (t) => {
  const d = decideChangeSupervisor(given(created), { supervisorId: 's1', patch: { actions: { archiveRuns: 'Never' } }, source });
  if (!isRight(d)) return t.fail();
  t.deepEqual(d.right[0]!.data, { patch: { actions: { archiveRuns: 'Never' } }, source });
  const s = given(created, ...d.right);
  t.is(s.settings.actions.archiveRuns, 'Never');
  t.is(s.settings.actions.startRuns, 'AskFirst');
});

test('unknown supervisors are refused by every command', (t) => {
  for (const d of [
    decideChangeSupervisor(null, { supervisorId: 'x', patch: {}, source }),
    decideRegenerateKey(null, { supervisorId: 'x', source }),
    decideKeepNotes(null, { supervisorId: 'x', text: '', source }),
    decideRecordCost(null, { supervisorId: 'x', day: '2026-11-20', cost: { _tag: 'Known', usd: 1 }, turnId: null }),
  ]) t.true(isLeft(d) && d.left._tag === 'NotFound');
});

test('notes: up to 20,000 characters replace the notes; more is refused; the same text is no change', (t) => {
  t.deepEqual(then(decideKeepNotes(given(created), { supervisorId: 's1', text: 'x'.repeat(20_000), source })), ['SupervisorNotesKept']);
  t.regex(String(then(decideKeepNotes(given(created), { supervisorId: 's1', text: 'x'.repeat(20_001), source }))), /at most 20000 characters/);
  const kept = given(created, { type: 'SupervisorNotesKept', data: { text: 'remember', source } });
  t.is(kept.notes, 'remember');
  t.deepEqual(then(decideKeepNotes(kept, { supervisorId: 's1', text: 'remember', source })), []);
});

test('the ledger: costs sum per local day; unknown costs are counted apart, never as dollars', (t) => {
  const cost = (day: string, usd: number): SupervisorEvent => ({ type: 'CostRecorded', data: { day, cost: { _tag: 'Known', usd }, turnId: null } });
  const s = given(created, cost('2026-11-19', 4), cost('2026-11-20', 1.25), cost('2026-11-20', 0.5),
    { type: 'CostRecorded', data: { day: '2026-11-20', cost: { _tag: 'Unknown', why: 'no usage' }, turnId: 't1' } });
  t.deepEqual(s.spent['2026-11-20'], { usd: 1.75, unknown: 1 });
  t.deepEqual(s.spent['2026-11-19'], { usd: 4, unknown: 0 });
  t.regex(String(then(decideRecordCost(s, { supervisorId: 's1', day: '20-11-2026', cost: { _tag: 'Known', usd: 1 }, turnId: null }))), /YYYY-MM-DD/);
  t.regex(String(then(decideRecordCost(s, { supervisorId: 's1', day: '2026-11-20', cost: { _tag: 'Known', usd: -1 }, turnId: null }))), /non-negative/);
});

const now = '2026-11-20T10:00:00.000Z';
const facts = { featureOn: true, now, today: '2026-11-20' };
const HELD: readonly { name: string; given: SupervisorEvent[]; featureOn?: boolean; then: RegExp | null }[] = [
  { name: 'a fresh supervisor', given: [], then: null },
  { name: 'the feature off', given: [], featureOn: false, then: /feature is off/ },
  { name: 'switched off', given: [{ type: 'SupervisorChanged', data: { patch: { enabled: false }, source } }], then: /switched off/ },
  { name: 'paused until later today', given: [{ type: 'SupervisorChanged', data: { patch: { pausedUntil: '2026-11-21T00:00:00.000Z' }, source } }], then: /paused for the day/ },
  { name: 'a pause that has ended', given: [{ type: 'SupervisorChanged', data: { patch: { pausedUntil: '2026-11-20T09:00:00.000Z' }, source } }], then: null },
  { name: "at today's limit", given: [{ type: 'CostRecorded', data: { day: '2026-11-20', cost: { _tag: 'Known', usd: 5 }, turnId: null } }], then: /spending limit \(\$5\.00 of \$5\.00\)/ },
  { name: "yesterday's spending", given: [{ type: 'CostRecorded', data: { day: '2026-11-19', cost: { _tag: 'Known', usd: 50 }, turnId: null } }], then: null },
];

for (const row of HELD) {
  test(`rule 8: given ${row.name}, actions are ${row.then ? 'held' : 'not held'}`, (t) => {
    const why = decideHeld(given(created, ...row.given), { ...facts, featureOn: row.featureOn ?? true });
    if (row.then) t.regex(why ?? '', row.then);
    else t.is(why, null);
  });
}
