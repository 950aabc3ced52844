import test from 'ava';
import { WorkflowCodec } from '../../journal/workflow-codec.js';
import { validateWorkflow } from '../../lib/workflows/validate.js';
import { isolateHome } from './helpers.js';

// The graph attribute fallbackHarnesses (docs/usage.md "Quota windows"): the harnesses a run
// switches to, in order, when its step's harness is out of quota.

isolateHome();

const source = (attr: string) => `digraph w {
  ${attr}
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work -> done
}`;

const load = (attr: string) => validateWorkflow(source(attr), { name: 'w', origin: 'project', files: { dir: process.cwd() }, personas: new Map() });

test('fallbackHarnesses is read in order, without repeats, and stored with the run', (t) => {
  const v = load('fallbackHarnesses="codex, opencode, codex"');
  t.deepEqual(v.workflow?.fallbackHarnesses, ['codex', 'opencode']);
  t.deepEqual(v.result.warnings, [], 'a known graph attribute');
  t.true(WorkflowCodec.is(v.workflow), 'the run\'s stored workflow decodes with it');
});

test('an unknown harness in fallbackHarnesses is an error on that attribute; absent is none', (t) => {
  const v = load('fallbackHarnesses="codex, gemini"');
  t.true(v.result.errors.some((e) => e.attribute === 'fallbackHarnesses' && /unknown harness gemini/.test(e.message)), JSON.stringify(v.result.errors));
  t.is(load('').workflow?.fallbackHarnesses, undefined);
});
