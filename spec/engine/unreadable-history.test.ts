import '../helpers/env.js';
import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { closeService, openService } from '../../lib/root/open.js';
import { freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { LINEAR } from '../helpers/server.js';

test('an event that no longer decodes: the run says why, only Abort is allowed, and Abort works', async (t) => {
  const home = freshHome();
  writeWorkflow(home, 'linear', LINEAR);
  const first = await openService({ home, engine: false });
  const p = await first.addProject('p', [{ path: gitRepo() }]);
  if (!isRight(p)) return t.fail();
  const made = first.startRun({ project: p.right.id, goal: 'g', workflow: 'linear', start: false }, { kind: 'person' });
  if (!isRight(made)) return t.fail();
  const runId = made.right.runId;
  const stream = `run:${runId}`;
  // A step event written by some other version of the service, with data this one cannot read.
  first.core.journal.append(stream, first.core.journal.head(stream), [{ type: 'StepStarted', data: { stepId: 7 } }], new Date().toISOString());
  await closeService(first);

  const second = await openService({ home, engine: false });
  t.teardown(() => closeService(second));
  const d = second.getRun(runId);
  if (!isRight(d)) return t.fail();
  t.regex(d.right.unreadableHistory ?? '', /event 2 \(StepStarted\) has bad/);
  t.deepEqual(d.right.allowedActions, ['Abort']);
  const refused = second.control(runId, { position: d.right.position, action: 'Resume' }, { kind: 'person' });
  t.true(refused._tag === 'Left' && refused.left._tag === 'NotAllowed');
  const aborted = second.control(runId, { position: d.right.position, action: 'Abort' }, { kind: 'person' });
  t.true(isRight(aborted) && aborted.right.outcome === 'Applied' && aborted.right.run.standing === 'Aborted');
  const page = second.readHistory(runId, undefined, 25);
  t.true(isRight(page) && page.right.events.some((e: any) => e.type === 'Unreadable'));
});
