import test from 'ava';
import { findNode } from '../../domain/workflow.js';
import { validateWorkflow } from '../../lib/workflows/validate.js';
import { isolateHome } from './helpers.js';

isolateHome();

// A gate may say what the person deciding there should look at: its `prompt`, shown in the app's
// gate panel. It is no longer a warning on a gate; on a start node it still is.

const load = (gate: string) => validateWorkflow(`digraph g {
  start [kind=start]
  work  [kind=agent, prompt="go"]
  check [kind=gate, ${gate}]
  done  [kind=exit]
  start -> work -> check -> done
}`, { name: 'g', origin: 'home', personas: new Map() });

test('a gate keeps its prompt, unescaped, without a warning', (t) => {
  const r = load('label="Look", prompt="Read the diff.\\nThen decide."');
  t.is(findNode(r.workflow!, 'check')?.prompt, 'Read the diff.\nThen decide.');
  t.deepEqual(r.result.warnings, []);
});

test('a gate without a prompt is fine; an empty one is an error', (t) => {
  const plain = load('label="Look"');
  t.is(findNode(plain.workflow!, 'check')?.prompt, undefined);
  t.deepEqual(plain.result.errors, []);
  t.deepEqual(load('prompt=""').result.errors.map((e) => [e.node, e.attribute]), [['check', 'prompt']]);
});
