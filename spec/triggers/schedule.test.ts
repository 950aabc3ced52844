import '../helpers/env.js';
import test from 'ava';
import { isLeft } from 'fp-ts/lib/Either.js';
import { closeService, openService } from '../../lib/root/open.js';
import type { Service } from '../../lib/root/service.js';
import { eventually, freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { LINEAR } from '../helpers/server.js';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';

// A Schedule rule on the real service (LMDB, engine, scripted harness) with a clock the test
// moves: each instant fires one run; instants that fell while the service was closed are skipped
// and noted on the rule once; nothing fires twice across restarts.

const home = freshHome();
writeWorkflow(home, 'linear', LINEAR);
const repo = gitRepo();

const open = async (at: string) => {
  const clock = new ManualClock(new Date(at));
  const service = await openService({ home, clock });
  return { clock, service, triggers: service.triggers };
};

const runsOf = (service: Service) => [...service.core.runs.all()];
const ended = (service: Service, n: number) =>
  eventually(() => runsOf(service), (rs) => rs.length === n && rs.every((r) => r.lifecycle === 'ended'), 30_000);

test.serial('a schedule fires at each instant of the clock, records startedBy, and skips what fell while it was down', async (t) => {
  let { clock, service, triggers } = await open('2030-01-01T09:59:30.000Z');
  const p = await service.addProject('demo', [{ path: repo }]);
  if (isLeft(p)) throw new Error(JSON.stringify(p.left));
  const created = triggers.create({ name: 'hourly', project: 'demo', workflow: 'linear', source: { _tag: 'Schedule', cron: '0 * * * *', timeZone: 'UTC' }, goal: 'Tidy up at {{event.instant}}' });
  if (isLeft(created)) throw new Error(JSON.stringify(created.left));
  const id = created.right.rule.id;
  await eventually(() => clock.sleeping, (n) => n === 1);
  t.deepEqual(triggers.list()[0]!.status, { _tag: 'Watching', detail: 'next firing at 2030-01-01T10:00:00.000Z' });
  t.is(runsOf(service).length, 0);

  clock.set('2030-01-01T10:00:00.000Z');
  const [first] = await ended(service, 1);
  t.is(first!.goal, 'Tidy up at 2030-01-01T10:00:00.000Z');
  t.deepEqual(first!.views.board.startedBy, { rule: { id, name: 'hourly' }, event: { kind: 'Schedule', id: 'schedule:2030-01-01T10:00:00.000Z', summary: 'scheduled for 2030-01-01T10:00:00.000Z (0 * * * *, UTC)' } });

  await eventually(() => clock.sleeping, (n) => n === 1);
  clock.set('2030-01-01T10:30:00.000Z');
  t.is(runsOf(service).length, 1);
  clock.set('2030-01-01T11:00:00.000Z');
  await ended(service, 2);
  await closeService(service);

  // down from 11:00 to 14:30: 12:00, 13:00 and 14:00 are skipped, and said so once
  ({ clock, service, triggers } = await open('2030-01-01T14:30:00.000Z'));
  await eventually(() => clock.sleeping, (n) => n === 1);
  t.is(runsOf(service).length, 2);
  const notes = triggers.store.get(id)!.notes;
  t.is(notes.length, 1);
  t.regex(notes[0]!.text, /skipped 3 scheduled firings from 2030-01-01T12:00:00.000Z to 2030-01-01T14:00:00.000Z/);
  t.deepEqual((triggers.get(id) as any).right.notes, notes);
  await closeService(service);

  ({ clock, service, triggers } = await open('2030-01-01T14:40:00.000Z'));
  await eventually(() => clock.sleeping, (n) => n === 1);
  t.is(triggers.store.get(id)!.notes.length, 1);
  clock.set('2030-01-01T15:00:00.000Z');
  const all = await ended(service, 3);
  t.deepEqual(all.map((r) => r.views.board.startedBy?.event.id).sort(), ['schedule:2030-01-01T10:00:00.000Z', 'schedule:2030-01-01T11:00:00.000Z', 'schedule:2030-01-01T15:00:00.000Z']);
  const events = triggers.events(id, 50);
  if (isLeft(events)) throw new Error('no events');
  t.deepEqual(events.right.events.map((e) => e.outcome._tag), ['Started', 'Started', 'Started']);
  await closeService(service);
});

test.serial('a time zone moves the instants: 09:00 in Tokyo is 00:00 UTC', async (t) => {
  const { clock, service, triggers } = await open('2030-02-01T23:00:00.000Z');
  const created = triggers.create({ name: 'tokyo', project: 'demo', workflow: 'linear', enabled: true, source: { _tag: 'Schedule', cron: '0 9 * * *', timeZone: 'Asia/Tokyo' }, goal: 'Morning' });
  if (isLeft(created)) throw new Error(JSON.stringify(created.left));
  t.teardown(() => closeService(service));
  await eventually(() => clock.sleeping, (n) => n === 2); // the hourly rule sleeps too
  t.like(triggers.get(created.right.rule.id), { right: { status: { _tag: 'Watching', detail: 'next firing at 2030-02-02T00:00:00.000Z' } } });
  const off = triggers.change(created.right.rule.id, { enabled: false });
  t.like(off, { right: { rule: { status: { _tag: 'Off' }, enabled: false } } });
  await eventually(() => clock.sleeping, (n) => n === 1);
  clock.set('2030-02-02T00:00:00.000Z');
  await eventually(() => runsOf(service), (rs) => rs.length === 4); // the hourly rule's 00:00
  t.is(runsOf(service).filter((r) => r.goal === 'Morning').length, 0);
});
