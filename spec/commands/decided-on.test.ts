import test from 'ava';
import { right } from 'fp-ts/lib/Either.js';
import { reuseDecision, type Decision } from '../../commands/guards.js';
import { created, given, queued } from '../helpers/given.js';

// A handler decides once to answer a refusal early; the transaction that records it reuses that
// decision while the run has not moved, and decides anew only on a run that moved in between.

test('a run that has not moved: the decision already made is recorded, the decide is not asked again', (t) => {
  const seen = given(created, queued);
  let asked = 0;
  const made: Decision = right([{ type: 'RunArchived', data: { by: { kind: 'person' } } }]);
  const d = reuseDecision(seen, made, () => { asked += 1; return right([]); })(seen);
  t.is(d, made);
  t.is(asked, 0);
});

test('a run that moved: the decide is asked on the run as it is now', (t) => {
  const seen = given(created);
  const now = given(created, queued);
  const asked: number[] = [];
  const d = reuseDecision(seen, right([]), (r) => { asked.push(r.seq); return right([]); })(now);
  t.deepEqual(d, right([]));
  t.deepEqual(asked, [now.seq]);
  t.not(now.seq, seen.seq);
});
