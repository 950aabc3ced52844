import test from 'ava';
import { decideArchive, type Archive } from '../../commands/archive.js';
import { at, by, created, prepared, queued, RUNNING, runDecider, started } from '../helpers/given.js';
import type { RunEvent } from '../../journal/run-events.js';

const runSpec = runDecider(decideArchive);

// Archiving: given(events) / when(Archive) / then(whole events, or the refusal).

const archive: Archive = { at, by, state: 'Archived', liveInChain: null };
const ended: RunEvent[] = [created, queued, started, prepared, { type: 'RunSucceeded', data: { summary: 'done' } }];

test('an ended run is archived; archiving an archived run decides nothing', (t) => {
  runSpec(t).given(...ended).when(archive).then({ type: 'RunArchived', data: { by } });
  runSpec(t).given(...ended, { type: 'RunArchived', data: { by } }).when(archive).thenNothing();
});

test('a run still going, or one whose follow-up works in its worktree, is refused with why', (t) => {
  runSpec(t).given(...RUNNING).when(archive).thenRefused('Conflict', 'the run is still going; abort it or let it end before archiving');
  runSpec(t).given(...ended).when({ ...archive, liveInChain: 'r2' })
    .thenRefused('Conflict', "run r2 is working in this run's worktree (a follow-up) and has not ended: archive once it has ended");
});
