// The activity log in a real LMDB store: a call starts and ends once (a repeated start and an
// end never seen starting change nothing), a turn that ends under a running call ends it as an
// error saying so, rows read back before LMDB has committed them, and a resume finds the rows
// that changed after a log line.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../journal/store.js';
import { LogStore } from '../../lib/state/log-store.js';

const open = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-activity-log-'));
  const store = openStore(dir);
  t.teardown(async () => (await store.close(), rmSync(dir, { recursive: true, force: true })));
  return new LogStore(store);
};

const start = (callId: string, title = callId) => ({ phase: 'started' as const, callId, tool: 'Bash', kind: 'command' as const, title });

test('a call starts once and ends once; an end with no start is dropped', (t) => {
  const logs = open(t);
  logs.write('r', 'agent', 'tool Bash');
  const row = logs.activity.record('r', 's1', start('c1'), '2026-01-01T00:00:00.000Z')!;
  t.like(row, { id: 1, status: 'running', line: 1, startedAt: '2026-01-01T00:00:00.000Z' });
  t.is(logs.activity.record('r', 's1', start('c1'), 'later'), null, 'announced again: nothing new');
  t.is(logs.activity.record('r', 's1', { phase: 'ended', callId: 'nope', status: 'ok' }, 'x'), null);
  logs.write('r', 'agent', 'tool result');
  const ended = logs.activity.record('r', 's1', { phase: 'ended', callId: 'c1', status: 'ok', output: 'x'.repeat(5000) }, '2026-01-01T00:00:02.000Z')!;
  t.like(ended, { id: 1, status: 'ok', line: 2, outputChars: 5000, endedAt: '2026-01-01T00:00:02.000Z' });
  t.is(logs.activity.get('r', 1)!.output!.length, 5000, 'read back whole before LMDB commits');
  t.is(logs.activity.page('r', undefined, 10)[0]!.output!.length, 2001, 'a page carries the preview');
  // the same call id in a later turn is a new call
  t.is(logs.activity.record('r', 's1', start('c1'), 'x')!.id, 2);
});

test('a turn that ends under running calls ends them as errors; a resume finds what changed after a line', async (t) => {
  const logs = open(t);
  logs.write('r', 'agent', 'one');
  logs.activity.record('r', 's1', start('a'), 't0');
  logs.activity.record('r', 's1', { phase: 'ended', callId: 'a', status: 'ok' }, 't1');
  logs.write('r', 'agent', 'two');
  logs.activity.record('r', 's1', start('b'), 't2');
  logs.activity.record('r', 's2', start('c'), 't2');
  logs.write('r', 'service', 'turn ended');
  logs.activity.endStep('r', 's1', 'the turn ended (interrupted) before this call finished', 't3');
  await logs.flushed();
  t.deepEqual(logs.activity.page('r', undefined, 10).map((r) => [r.id, r.status, r.output ?? null]), [
    [1, 'ok', ''], [2, 'error', 'the turn ended (interrupted) before this call finished'], [3, 'running', null],
  ]);
  t.deepEqual(logs.activity.after('r', 1).map((r) => r.id), [2, 3]);
  t.deepEqual(logs.activity.after('r', 2).map((r) => r.id), [2]);
  t.deepEqual(logs.activity.page('r', 3, 1).map((r) => r.id), [2]);
});

test('after a restart, a step\'s calls left running are found in the store and ended', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-activity-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const before = openStore(dir);
  new LogStore(before).activity.record('r', 's1', start('a'), 't0');
  await before.close();
  const after = openStore(dir);
  t.teardown(() => after.close());
  const logs = new LogStore(after);
  logs.activity.endStep('r', 's1', 'the turn ended before this call finished', 't1');
  t.is(logs.activity.get('r', 1)!.status, 'running', 'memory alone knows nothing of it');
  logs.activity.endStep('r', 's1', 'the service stopped while this call was running', 't1', true);
  t.like(logs.activity.get('r', 1), { status: 'error', output: 'the service stopped while this call was running', endedAt: 't1' });
});
