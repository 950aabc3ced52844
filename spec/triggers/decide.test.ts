import test from 'ava';
import { decideChangeTrigger, decideCreateTrigger, decideDeleteTrigger } from '../../commands/trigger-define.js';
import { decideRecordEvent, decideSettleRun, decideSkipFirings } from '../../commands/trigger-fire.js';
import type { TriggerDefinition, TriggerEvent } from '../../journal/trigger-events.js';
import { evolveTrigger, type TriggerRule } from '../../projections/trigger-rule.js';

// given(events) / when(command) / then(events or refusal) for the pure trigger decides.

const at = '2030-01-01T10:00:00.000Z';
const def: TriggerDefinition = { name: 'r', project: 'p', workflow: 'w', enabled: true, source: { _tag: 'Schedule', cron: '0 * * * *', timeZone: 'UTC' }, goal: 'g', inputs: {} };
const given = (...events: TriggerEvent[]): TriggerRule | null => events.reduce<TriggerRule | null>((s, e, i) => evolveTrigger(s, e, at, i + 1), null);
const created: TriggerEvent = { type: 'TriggerCreated', data: { ruleId: 't1', definition: def } };
const recorded = (eventId: string, runId = 'r1'): TriggerEvent => ({ type: 'EventRecorded', data: { eventId, kind: 'Schedule', summary: 's', runId } });
const ok = { problem: null };

test('create: a problem found by I/O is a refusal; a second create of the same id conflicts', (t) => {
  t.like(decideCreateTrigger(null, { ruleId: 't1', definition: def, facts: { problem: 'unknown project "p"' } }), { left: { _tag: 'Invalid', detail: 'unknown project "p"' } });
  t.like(decideCreateTrigger(null, { ruleId: 't1', definition: { ...def, name: ' padded' }, facts: ok }), { left: { _tag: 'Invalid' } });
  t.like(decideCreateTrigger(null, { ruleId: 't1', definition: { ...def, model: 'm' }, facts: ok }), { left: { _tag: 'Invalid' } });
  t.deepEqual(decideCreateTrigger(null, { ruleId: 't1', definition: def, facts: ok }), { _tag: 'Right', right: [created] });
  t.like(decideCreateTrigger(given(created), { ruleId: 't1', definition: def, facts: ok }), { left: { _tag: 'Conflict' } });
});

test('change: the same definition again is []; a deleted rule is not found', (t) => {
  t.deepEqual(decideChangeTrigger(given(created), { ruleId: 't1', definition: def, facts: ok }), { _tag: 'Right', right: [] });
  t.like(decideChangeTrigger(given(created), { ruleId: 't1', definition: { ...def, enabled: false }, facts: ok }), { right: [{ type: 'TriggerChanged' }] });
  const deleted = given(created, { type: 'TriggerDeleted', data: {} });
  t.like(decideChangeTrigger(deleted, { ruleId: 't1', definition: def, facts: ok }), { left: { _tag: 'NotFound' } });
  t.like(decideDeleteTrigger(deleted, { ruleId: 't1' }), { left: { _tag: 'NotFound' } });
});

test('record: an event id the rule has seen returns [] (fires once), whatever became of its run', (t) => {
  const e = { id: 'schedule:2030-01-01T11:00:00.000Z', kind: 'Schedule' as const, summary: 's' };
  t.like(decideRecordEvent(given(created), { ruleId: 't1', event: e, runId: 'r9' }), { right: [{ type: 'EventRecorded', data: { eventId: e.id, runId: 'r9' } }] });
  t.deepEqual(decideRecordEvent(given(created, recorded(e.id)), { ruleId: 't1', event: e, runId: 'r10' }), { _tag: 'Right', right: [] });
  const lost = given(created, recorded(e.id), { type: 'RunLost', data: { eventId: e.id, reason: 'crash' } });
  t.deepEqual(decideRecordEvent(lost, { ruleId: 't1', event: e, runId: 'r11' }), { _tag: 'Right', right: [] });
  t.like(decideRecordEvent(null, { ruleId: 't1', event: e, runId: 'r12' }), { left: { _tag: 'NotFound' } });
});

test('settle: a refusal or a loss is recorded once', (t) => {
  const s = given(created, recorded('x'));
  t.like(decideSettleRun(s, { ruleId: 't1', eventId: 'x', refused: 'no workflow' }), { right: [{ type: 'RunRefused' }] });
  const refused = given(created, recorded('x'), { type: 'RunRefused', data: { eventId: 'x', reason: 'no workflow' } });
  t.deepEqual(decideSettleRun(refused, { ruleId: 't1', eventId: 'x', lost: 'crash' }), { _tag: 'Right', right: [] });
});

test('skipped firings: only instants past the cursor, said once', (t) => {
  const s = given(created, recorded('schedule:2030-01-01T11:00:00.000Z'));
  const missed = ['2030-01-01T11:00:00.000Z', '2030-01-01T12:00:00.000Z', '2030-01-01T13:00:00.000Z'];
  const d = decideSkipFirings(s, { ruleId: 't1', missed });
  t.deepEqual(d, { _tag: 'Right', right: [{ type: 'FiringsSkipped', data: { count: 2, first: missed[1]!, last: missed[2]! } }] });
  const after = given(created, recorded('schedule:2030-01-01T11:00:00.000Z'), ...(d._tag === 'Right' ? d.right : []));
  t.deepEqual(decideSkipFirings(after, { ruleId: 't1', missed }), { _tag: 'Right', right: [] });
});
