import '../helpers/env.js';
import test from 'ava';
import { windowWatch } from '../../lib/app/window-watch.js';
import { eventually, sleep } from '../helpers/env.js';

// When `svc app` takes its window for gone. Short periods; what is checked is whether the stop
// comes and why, never how fast.

const watching = (mode: 'app' | 'default', handedOver = true) => {
  const stops: string[] = [];
  const notes: string[] = [];
  const w = windowWatch(mode, { graceMs: 30, firstMs: 60 }, (why) => stops.push(why), (what) => notes.push(what), () => handedOver);
  return { w, stops, notes };
};

test('a browser process that served the app ending is the window closing', (t) => {
  const { w, stops } = watching('app');
  t.teardown(() => w.dispose());
  w.opened();
  w.browserExited(0);
  t.deepEqual(stops, ['the window closed']);
});

test('a browser ending with an error before the app connected opened no window', (t) => {
  const { w, stops } = watching('app');
  t.teardown(() => w.dispose());
  w.browserExited(21);
  t.is(stops.length, 1);
  t.regex(stops[0]!, /exit code 21/);
});

test('a browser handing its window over (exit 0 before the app connected): the stream decides', async (t) => {
  const { w, stops, notes } = watching('app');
  t.teardown(() => w.dispose());
  w.browserExited(0);
  t.deepEqual(stops, []);
  t.is(notes.length, 1);
  w.opened();
  await sleep(150);
  t.deepEqual(stops, [], 'the taken-over window is still there');
  w.closed();
  await eventually(() => stops.length, (n) => n === 1);
  t.regex(stops[0]!, /grace period/);
});

test('exit 0 before the app connected with no other browser holding the profile: the window closed early', (t) => {
  const { w, stops, notes } = watching('app', false);
  t.teardown(() => w.dispose());
  w.browserExited(0);
  t.deepEqual(stops, ['the window closed before the app connected']);
  t.deepEqual(notes, []);
});

test('in --app mode open and closed streams alone never stop the server', async (t) => {
  const { w, stops } = watching('app');
  t.teardown(() => w.dispose());
  w.opened();
  w.closed();
  await sleep(150);
  t.deepEqual(stops, []);
});

test('with the default browser the stream decides from the start', async (t) => {
  const { w, stops } = watching('default');
  t.teardown(() => w.dispose());
  await eventually(() => stops.length, (n) => n === 1);
  t.regex(stops[0]!, /no app window connected/);
});
