import test from 'ava';
import { placeStep, type PlacementAsk, type Seat } from '../../lib/workers/placement.js';

// Where a dispatched step runs (lib/workers/placement.ts, docs/workers.md "Run on"): one row per
// rule, over two or three workers as the hub sees them.

const seat = (workerId: string, o: Partial<Seat> = {}): Seat => ({ workerId, online: true, slots: 2, inUse: 0, harnesses: ['claude'], ...o });
const ask = (o: Partial<PlacementAsk> = {}): PlacementAsk => ({ harness: 'claude', runOn: 'any', ...o });

const rows: ReadonlyArray<readonly [string, PlacementAsk, readonly Seat[], unknown]> = [
  ['here stays here, whatever the workers', ask({ runOn: 'here' }), [seat('wa')], { _tag: 'Here' }],
  ['a project pinned to a worker goes there even while it is offline and full', ask({ runOn: 'wa' }), [seat('wa', { online: false, inUse: 2 })], { _tag: 'Worker', workerId: 'wa', why: 'pinned' }],
  ['a run pin beats the project pin', ask({ runOn: 'wa', runPin: 'wb' }), [seat('wa'), seat('wb')], { _tag: 'Worker', workerId: 'wb', why: 'run-pin' }],
  ['a run pin beats any and stickiness', ask({ runPin: 'wb', previous: 'wa' }), [seat('wa'), seat('wb')], { _tag: 'Worker', workerId: 'wb', why: 'run-pin' }],
  ['a run pinned here runs here on a project of any', ask({ runPin: 'here' }), [seat('wa')], { _tag: 'Here' }],
  ['sticky to the previous machine while it is online', ask({ previous: 'wb' }), [seat('wa'), seat('wb', { inUse: 1 })], { _tag: 'Worker', workerId: 'wb', why: 'sticky' }],
  ['sticky waits for its machine\'s slot', ask({ previous: 'wb' }), [seat('wa'), seat('wb', { inUse: 2 })], { _tag: 'Wait', why: 'its previous machine wb has no free slot' }],
  ['the previous machine lost: any free one', ask({ previous: 'wb' }), [seat('wa'), seat('wb', { online: false })], { _tag: 'Worker', workerId: 'wa', why: 'free' }],
  ['the previous machine without the harness: any free one', ask({ previous: 'wb' }), [seat('wa'), seat('wb', { harnesses: ['codex'] })], { _tag: 'Worker', workerId: 'wa', why: 'free' }],
  ['a machine the step\'s lease lapsed on is avoided, sticky or not', ask({ previous: 'wa', avoid: ['wa'] }), [seat('wa'), seat('wb')], { _tag: 'Worker', workerId: 'wb', why: 'free' }],
  ['the most free slots first', ask(), [seat('wa', { inUse: 1 }), seat('wb', { slots: 3, inUse: 1 })], { _tag: 'Worker', workerId: 'wb', why: 'free' }],
  ['ties by worker id', ask(), [seat('wb'), seat('wa')], { _tag: 'Worker', workerId: 'wa', why: 'free' }],
  ['only workers with the harness ready', ask({ harness: 'codex' }), [seat('wa'), seat('wb', { harnesses: ['claude', 'codex'], inUse: 1 })], { _tag: 'Worker', workerId: 'wb', why: 'free' }],
  ['all full: wait', ask(), [seat('wa', { inUse: 2 }), seat('wb', { inUse: 3 })], { _tag: 'Wait', why: 'no online worker with claude ready has a free slot' }],
  ['none online with the harness: wait', ask({ harness: 'opencode' }), [seat('wa'), seat('wb', { online: false, harnesses: ['opencode'] })], { _tag: 'Wait', why: 'no online worker has opencode ready' }],
  ['no workers at all: wait', ask(), [], { _tag: 'Wait', why: 'no online worker has claude ready' }],
];

for (const [name, a, seats, want] of rows) {
  test(`placement: ${name}`, (t) => t.deepEqual(placeStep(a, seats), want));
}
