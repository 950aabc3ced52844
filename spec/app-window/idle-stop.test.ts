import '../helpers/env.js';
import test from 'ava';
import { idleStop } from '../../lib/app/idle-stop.js';
import { eventually, sleep } from '../helpers/env.js';

// The default-browser window is judged by its push streams. Short periods here; what is checked
// is whether the stop comes, never how fast.

const watch = (graceMs: number, firstMs: number) => {
  let idle = 0;
  const w = idleStop({ graceMs, firstMs, onIdle: () => { idle++; } });
  return { w, idle: () => idle };
};

test('no stream ever opening stops after the first wait', async (t) => {
  const { w, idle } = watch(10_000, 20);
  t.teardown(() => w.dispose());
  await eventually(idle, (n) => n === 1);
  t.pass();
});

test('an open stream keeps the server; once the last one closes, the grace period runs out', async (t) => {
  const { w, idle } = watch(30, 20);
  t.teardown(() => w.dispose());
  w.opened();
  w.opened();
  w.closed();
  await sleep(150);
  t.is(idle(), 0, 'one stream is still open');
  w.closed();
  await eventually(idle, (n) => n === 1);
  t.pass();
});

test('a stream back within the grace period (a reload) keeps the server', async (t) => {
  const { w, idle } = watch(100, 20);
  t.teardown(() => w.dispose());
  w.opened();
  w.closed();
  w.opened();
  await sleep(250);
  t.is(idle(), 0);
});
