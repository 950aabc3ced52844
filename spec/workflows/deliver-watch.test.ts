import test from 'ava';
import { deliverWatch } from '../../lib/workflows/deliver-watch.js';
import { findNode } from '../../domain/workflow.js';
import { validateWorkflow } from '../../lib/workflows/validate.js';
import { isolateHome } from './helpers.js';

isolateHome();

// A deliver step's pull request loop attributes: watch, cycles (default 3), resolveThreads.

const source = (attrs: string) => `digraph w {
  start [kind=start]
  ship [kind=deliver${attrs}]
  done [kind=exit]
  start -> ship -> done
}`;

const load = (attrs: string) => validateWorkflow(source(attrs), { name: 'w', origin: 'project', personas: new Map() });

test('watch=true reads as a loop with its defaults; without it, a plain delivery', (t) => {
  const wf = load(', watch=true').workflow!;
  t.deepEqual(deliverWatch(findNode(wf, 'ship')!), { cycles: 3, resolveThreads: false });
  t.deepEqual(deliverWatch(findNode(load(', watch=true, cycles=5, resolveThreads=true').workflow!, 'ship')!), { cycles: 5, resolveThreads: true });
  t.is(deliverWatch(findNode(load('').workflow!, 'ship')!), null);
  t.deepEqual(load(', watch=true, cycles=2').result.warnings, [], 'the loop attributes belong to deliver');
});

test('a wrong value is an error naming the attribute', (t) => {
  for (const [attrs, attribute, message] of [
    [', watch=yes', 'watch', /watch is true or false, not yes/],
    [', watch=true, cycles=0', 'cycles', /cycles is a whole number from 1 to 50, not 0/],
    [', watch=true, cycles=2.5', 'cycles', /not 2.5/],
    [', resolveThreads=1', 'resolveThreads', /resolveThreads is true or false/],
  ] as const) {
    const r = load(attrs);
    t.is(r.workflow, undefined, attrs);
    const e = r.result.errors.find((x) => x.attribute === attribute);
    t.regex(e?.message ?? '', message, attrs);
  }
});
