import test from 'ava';
import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideChooseRunOn } from '../../commands/run-on.js';
import type { ProjectEvent } from '../../journal/project-events.js';
import { evolveProjects, type Projects } from '../../projections/projects.js';

// A project's "Run on" (docs/workers.md): given(events) / when(command) / then(events or refusal).

const given = (...events: ProjectEvent[]): Projects => events.reduce(evolveProjects, new Map() as Projects);
const added: ProjectEvent = { type: 'ProjectAdded', data: { projectId: 'p1', name: 'demo', folders: [{ name: 'app', path: '/src/app' }] } };
const onW1: ProjectEvent = { type: 'RunOnChosen', data: { projectId: 'p1', runOn: 'w1' } };

test('an active worker is recorded; here on a new project is nothing; back to here is recorded', (t) => {
  t.deepEqual(decideChooseRunOn(given(added), { projectId: 'p1', runOn: 'w1', worker: 'active' }), right([onW1]));
  t.deepEqual(decideChooseRunOn(given(added), { projectId: 'p1', runOn: 'here' }), right([]));
  t.is(given(added, onW1).get('p1')?.runOn, 'w1');
  t.deepEqual(decideChooseRunOn(given(added, onW1), { projectId: 'p1', runOn: 'here' }), right([{ type: 'RunOnChosen', data: { projectId: 'p1', runOn: 'here' } }]));
});

test('an unknown or revoked worker, or an unknown project, is refused', (t) => {
  const unknown = decideChooseRunOn(given(added), { projectId: 'p1', runOn: 'w9', worker: 'unknown' });
  t.true(isLeft(unknown) && unknown.left._tag === 'Invalid' && /not a worker/.test(unknown.left.detail));
  const revoked = decideChooseRunOn(given(added), { projectId: 'p1', runOn: 'w1', worker: 'revoked' });
  t.true(isLeft(revoked) && revoked.left._tag === 'Invalid' && /revoked/.test(revoked.left.detail));
  t.deepEqual(decideChooseRunOn(given(), { projectId: 'p9', runOn: 'here' }), left({ _tag: 'NotFound', what: 'project', id: 'p9' }));
});
