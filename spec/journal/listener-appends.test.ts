import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Journal } from '../../journal/journal.js';
import { openStore } from '../../journal/store.js';

// A process manager reacts to an event by appending another (MessageSent -> MessageDelivered).
// Every listener must still see the stream in seq order, and all of it before the first append
// returns (the command's answer reads what the reaction did).

test('an append made by a listener is told to every listener after the event that caused it, before append returns', async (t) => {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'db'));
  t.teardown(() => store.close());
  const journal = new Journal(store);
  const seen: Record<string, string[]> = { first: [], reacting: [], last: [] };
  const watch = (name: string) => journal.subscribe((stream, events) => { for (const e of events) seen[name]!.push(`${stream}:${e.seq}:${e.type}`); });
  watch('first');
  journal.subscribe((stream, events) => {
    for (const e of events) seen['reacting']!.push(`${stream}:${e.seq}:${e.type}`);
    if (events.some((e) => e.type === 'Sent')) journal.append(stream, journal.head(stream), [{ type: 'Delivered', data: {} }], 'now');
  });
  watch('last');
  const r = journal.append('s', 0, [{ type: 'Sent', data: {} }], 'now');
  t.is(r._tag, 'Appended');
  const order = ['s:1:Sent', 's:2:Delivered'];
  t.deepEqual(seen, { first: order, reacting: order, last: order });
  t.is(journal.head('s'), 2);
});

test('a listener that throws does not stop the others, nor the appends queued behind it', async (t) => {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'db'));
  t.teardown(() => store.close());
  const journal = new Journal(store);
  const seen: string[] = [];
  journal.subscribe((stream, events) => {
    if (events[0]!.type === 'A') journal.append(stream, 1, [{ type: 'B', data: {} }], 'now');
    throw new Error('a faulty listener');
  });
  journal.subscribe((_s, events) => { seen.push(...events.map((e) => e.type)); });
  const error = console.error;
  console.error = () => undefined;
  try {
    journal.append('s', 0, [{ type: 'A', data: {} }], 'now');
  } finally {
    console.error = error;
  }
  t.deepEqual(seen, ['A', 'B']);
});
