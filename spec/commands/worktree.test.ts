import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { refusalText } from '../../commands/refusal.js';
import { worktreesFor } from '../../commands/worktree.js';
import { by, created, given, prepared, queued, RUNNING, started } from '../helpers/given.js';

// Every action that needs the run's worktree refuses a run without one in the same words.

const refusal = (s: ReturnType<typeof given>, toDo: string): string => {
  const r = worktreesFor(s, toDo);
  return isLeft(r) ? `${r.left._tag}: ${refusalText(r.left)}` : 'taken';
};

test('a run with its worktrees is taken; one without is refused in one wording, saying what could not be done', (t) => {
  const ok = worktreesFor(given(...RUNNING), 'there is nothing to push');
  t.true(isRight(ok) && ok.right.length === 1);
  t.is(refusal(given(created, queued), 'there is nothing to push'), 'Conflict: the run has no worktree of its own yet (it has not started): there is nothing to push');
  t.is(refusal(given(created, queued, started, { type: 'RunAborted', data: { by } }), 'there is no diff to review'),
    'Conflict: the run has no worktree of its own any more (archived, or it never started): there is no diff to review');
  const archived = given(created, queued, started, prepared, { type: 'RunSucceeded', data: { summary: 'done' } }, { type: 'RunArchived', data: { by } }, { type: 'WorktreesRemoved', data: {} });
  t.is(refusal(archived, 'there is no work to secure'), 'Conflict: the run has no worktree of its own any more (archived, or it never started): there is no work to secure');
  // archived with its work kept (issue 32): the refusal names the way back
  const kept = given(created, queued, started, prepared, { type: 'RunSucceeded', data: { summary: 'done' } }, { type: 'RunArchived', data: { by } },
    { type: 'WorkKept', data: { kept: [{ folder: 'f', commit: 'k', ref: 'refs/svc/kept/r1/0', head: 'svc/r1', changes: 2 }] } }, { type: 'WorktreesRemoved', data: {} });
  t.is(refusal(kept, 'there is no work to secure'), "Conflict: the run's worktree is archived with its work kept: unarchive the run to bring it back as it was: there is no work to secure");
});
