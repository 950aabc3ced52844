import '../helpers/env.js';
import test from 'ava';
import { isLeft } from 'fp-ts/lib/Either.js';
import { closeService, openService } from '../../lib/root/open.js';
import { triggerStream } from '../../lib/triggers/store.js';
import { freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { LINEAR } from '../helpers/server.js';

// The record-then-create order across a crash: an event id recorded in the rule's journal whose run
// was never created (the service stopped in between) is reported as lost on the next start, once,
// and the same event delivered again is not fired a second time. A run the service refuses to
// create is recorded with the reason.

const home = freshHome();
writeWorkflow(home, 'linear', LINEAR);

test.serial('an event recorded without its run is reported lost, not re-fired', async (t) => {
  let service = await openService({ home });
  const p = await service.addProject('demo', [{ path: gitRepo() }]);
  if (isLeft(p)) throw new Error(JSON.stringify(p.left));
  const created = service.triggers.create({ name: 'hook', project: 'demo', workflow: 'linear', source: { _tag: 'Webhook' }, goal: 'g' });
  if (isLeft(created)) throw new Error(JSON.stringify(created.left));
  const { rule, secret } = created.right;
  // what a crash between the two writes leaves: the event recorded, no run created
  const stream = triggerStream(rule.id);
  service.core.journal.append(stream, service.core.journal.head(stream), [
    { type: 'EventRecorded', data: { eventId: 'webhook:d-crash', kind: 'Webhook', summary: 'delivered before the crash', runId: 'r-never-created' } },
  ], new Date().toISOString());
  await closeService(service);

  service = await openService({ home });
  t.teardown(() => closeService(service));
  const triggers = service.triggers;
  const events = triggers.events(rule.id, 10);
  if (isLeft(events)) throw new Error('no events');
  t.like(events.right.events[0], { id: 'webhook:d-crash', outcome: { _tag: 'Lost' } });
  t.regex((events.right.events[0]!.outcome as { reason: string }).reason, /stopped after recording this event and before creating its run/);
  t.is(triggers.store.get(rule.id)!.notes.length, 1);

  const again = triggers.deliver(rule.id, secret!, 'd-crash', { summary: 'redelivered' }, '{}');
  t.like(again, { right: { _tag: 'Fired', outcome: { _tag: 'Duplicate', runId: 'r-never-created' } } });
  t.is(service.core.runs.size, 0);
  await closeService(service);
  service = await openService({ home });
  t.is(service.triggers.store.get(rule.id)!.notes.length, 1); // said once, not on every start
});

test.serial('a run the service refuses is recorded with the reason, and the event still counts as seen', async (t) => {
  const service = await openService({ home });
  t.teardown(() => closeService(service));
  const triggers = service.triggers;
  writeWorkflow(home, 'brittle', LINEAR.replace('digraph linear', 'digraph brittle'));
  const created = triggers.create({ name: 'brittle', project: 'demo', workflow: 'brittle', source: { _tag: 'Webhook' }, goal: 'g' });
  if (isLeft(created)) throw new Error(JSON.stringify(created.left));
  writeWorkflow(home, 'brittle', 'digraph brittle { this is not a workflow');
  const fired = triggers.fireNow(created.right.rule.id, { summary: 'try' });
  if (isLeft(fired)) throw new Error(JSON.stringify(fired.left));
  t.is(fired.right._tag, 'Refused');
  const events = triggers.events(created.right.rule.id, 10);
  if (isLeft(events)) throw new Error('no events');
  t.like(events.right.events[0], { kind: 'Manual', outcome: { _tag: 'Refused' } });
  t.regex((events.right.events[0]!.outcome as { reason: string }).reason, /brittle/);
  // a rule whose workflow broke can still be switched off, but not pointed at another broken one
  t.like(triggers.change(created.right.rule.id, { enabled: false }), { right: { rule: { enabled: false } } });
  t.like(triggers.change(created.right.rule.id, { workflow: 'nope' }), { left: { _tag: 'Invalid' } });
});
