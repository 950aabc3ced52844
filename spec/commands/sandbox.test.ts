import test from 'ava';
import { left, right } from 'fp-ts/lib/Either.js';
import { decideChooseSandbox, decideSetEgressAllowlist } from '../../commands/sandbox.js';
import { decideStartReadiness } from '../../commands/start-readiness.js';
import type { ProjectEvent } from '../../journal/project-events.js';
import { evolveProjects, type Projects } from '../../projections/projects.js';

// A project's sandbox and egress allowlist, and the start rule's sandbox half: given(events) /
// when(command) / then(events or refusal).

const given = (...events: ProjectEvent[]): Projects => events.reduce(evolveProjects, new Map() as Projects);
const added: ProjectEvent = { type: 'ProjectAdded', data: { projectId: 'p1', name: 'demo', folders: [{ name: 'app', path: '/src/app' }] } };

test('given a new project (preferred), choosing required records it; choosing preferred again is nothing', (t) => {
  t.deepEqual(decideChooseSandbox(given(added), { projectId: 'p1', sandbox: 'required' }), right([{ type: 'SandboxChosen', data: { projectId: 'p1', sandbox: 'required' } }]));
  t.deepEqual(decideChooseSandbox(given(added), { projectId: 'p1', sandbox: 'preferred' }), right([]));
  t.deepEqual(decideChooseSandbox(given(), { projectId: 'p9', sandbox: 'off' }), left({ _tag: 'NotFound', what: 'project', id: 'p9' }));
});

test('an egress allowlist takes host patterns; * only for full steps; an unchanged list is nothing', (t) => {
  const set: ProjectEvent = { type: 'EgressAllowlistSet', data: { projectId: 'p1', allow: ['registry.npmjs.org'], full: ['*'] } };
  t.deepEqual(decideSetEgressAllowlist(given(added), { projectId: 'p1', allow: ['registry.npmjs.org'], full: ['*'] }), right([set]));
  t.deepEqual(decideSetEgressAllowlist(given(added, set), { projectId: 'p1', allow: ['registry.npmjs.org'] }), right([]), 'the full list is kept when not given');
  const star = decideSetEgressAllowlist(given(added), { projectId: 'p1', allow: ['*'] });
  t.true(star._tag === 'Left' && star.left._tag === 'Invalid' && star.left.detail.includes('"*"'));
  const url = decideSetEgressAllowlist(given(added), { projectId: 'p1', allow: ['https://x.org/a'] });
  t.true(url._tag === 'Left' && url.left._tag === 'Invalid');
});

test('given a project that requires the sandbox where it cannot start, a start is refused with the reason; preferred and off start', (t) => {
  const base = { needed: [], availability: new Map(), start: true } as const;
  const r = decideStartReadiness({ ...base, sandbox: { mode: 'required', unavailable: 'bubblewrap is not installed (bwrap: not found)' } });
  t.deepEqual(r, { _tag: 'Unavailable', detail: 'not started: this project requires svc\'s sandbox, and it cannot start here: bubblewrap is not installed (bwrap: not found). Fix that (`svc doctor` checks it), or set the project\'s sandbox to preferred.' });
  t.is(decideStartReadiness({ ...base, sandbox: { mode: 'preferred', unavailable: 'x' } }), null);
  t.is(decideStartReadiness({ ...base, sandbox: { mode: 'off', unavailable: 'x' } }), null);
  t.is(decideStartReadiness({ ...base, sandbox: { mode: 'required', unavailable: null } }), null);
  t.is(decideStartReadiness({ ...base, start: false, sandbox: { mode: 'required', unavailable: 'x' } }), null, 'recording without starting needs nothing');
});
