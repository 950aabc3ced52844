import test from 'ava';
import type { RunEvent } from '../../journal/run-events.js';
import { folderEffect } from '../../lib/engine/keep-work.js';
import { by, given, RUNNING } from '../helpers/given.js';

// What an archived or unarchived run's folders need next, read off its journal alone: what a
// restart after a crash anywhere in an archive or an unarchive carries on with.

const failed: RunEvent[] = [...RUNNING, { type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'no' } }, { type: 'RunFailed', data: { reason: 'no' } }];
const archived: RunEvent = { type: 'RunArchived', data: { by } };
const unarchived: RunEvent = { type: 'RunUnarchived', data: { by } };
const kept: RunEvent = { type: 'WorkKept', data: { kept: [{ folder: 'f', commit: 'k1', ref: 'refs/svc/kept/r1/0', head: 'svc/r1', changes: 1 }] } };
const removed: RunEvent = { type: 'WorktreesRemoved', data: {} };
const restored: RunEvent = { type: 'WorktreesRestored', data: { checkouts: [{ folder: 'f', path: '/p', directory: '/w', branch: 'svc/r1', base: 'abc' }] } };

const ROWS: readonly [string, readonly RunEvent[], ReturnType<typeof folderEffect>][] = [
  ['an ended run keeps its folders', failed, null],
  ['archived: keep the work first', [...failed, archived], 'Keep'],
  ['kept: now the folders may go', [...failed, archived, kept], 'Remove'],
  ['unarchived once kept: the folder goes all the same (a crash may have half removed it), then comes back', [...failed, archived, kept, unarchived], 'Remove'],
  ['removed: nothing more while archived', [...failed, archived, kept, removed], null],
  ['unarchived: restore', [...failed, archived, kept, removed, unarchived], 'Restore'],
  ['restored: nothing more', [...failed, archived, kept, removed, unarchived, restored], null],
  ['archived again: a new keep, not the old snapshot', [...failed, archived, kept, removed, unarchived, restored, archived], 'Keep'],
  ['an archive from before kept work: nothing to restore', [...failed, archived, removed, unarchived], null],
];

for (const [name, events, effect] of ROWS) {
  test(name, (t) => t.is(folderEffect(given(...(events as RunEvent[]))), effect));
}
