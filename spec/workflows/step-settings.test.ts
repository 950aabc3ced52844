import test from 'ava';
import { resolveStepSettings, toolClasses, type StepSettingsInput } from '../../lib/workflows/step-settings.js';

// The precedence table: run > node > persona > workflow > settings > shipped, level by level.

const everything: StepSettingsInput = {
  run: { harness: 'opencode', model: 'run-model' },
  node: { harness: 'codex', model: 'node-model', persona: 'node-persona', tools: 'full' },
  persona: { harness: 'claude', model: 'persona-model', tools: 'read-only' },
  workflow: { harness: 'codex', model: 'wf-model', persona: 'wf-persona', tools: 'edit' },
  settings: { defaultHarness: 'opencode' },
};

const peel = (i: StepSettingsInput, level: 'run' | 'node' | 'persona' | 'workflow' | 'settings'): StepSettingsInput => {
  switch (level) {
    case 'run': return { ...i, run: {} };
    case 'node': return { ...i, node: {} };
    case 'persona': { const { persona: _, ...rest } = i; return rest; }
    case 'workflow': return { ...i, workflow: {} };
    case 'settings': return { ...i, settings: {} };
  }
};

test('every value comes from the highest level that sets it', (t) => {
  t.deepEqual(resolveStepSettings(everything), {
    persona: { value: 'node-persona', source: 'node' },
    harness: { value: 'opencode', source: 'run' },
    model: { value: 'run-model', source: 'run' },
    tools: { value: 'full', source: 'node' },
  });
});

const table: ReadonlyArray<[string, StepSettingsInput, Record<string, [unknown, string]>]> = (() => {
  const noRun = peel(everything, 'run');
  const noNode = peel(noRun, 'node');
  const noPersona = peel(noNode, 'persona');
  const noWorkflow = peel(noPersona, 'workflow');
  const nothing = peel(noWorkflow, 'settings');
  return [
    ['without run', noRun, { persona: ['node-persona', 'node'], harness: ['codex', 'node'], model: ['node-model', 'node'], tools: ['full', 'node'] }],
    ['without run, node', noNode, { persona: ['wf-persona', 'workflow'], harness: ['claude', 'persona'], model: ['persona-model', 'persona'], tools: ['read-only', 'persona'] }],
    ['without run, node, persona', noPersona, { persona: ['wf-persona', 'workflow'], harness: ['codex', 'workflow'], model: ['wf-model', 'workflow'], tools: ['edit', 'workflow'] }],
    ['only settings', noWorkflow, { persona: [null, 'shipped'], harness: ['opencode', 'settings'], model: [null, 'shipped'], tools: ['edit', 'shipped'] }],
    ['nothing set', nothing, { persona: [null, 'shipped'], harness: ['claude', 'shipped'], model: [null, 'shipped'], tools: ['edit', 'shipped'] }],
  ];
})();

for (const [name, input, expected] of table) {
  test(`precedence: ${name}`, (t) => {
    const got = resolveStepSettings(input);
    for (const key of ['persona', 'harness', 'model', 'tools'] as const) {
      t.deepEqual(got[key], { value: expected[key][0], source: expected[key][1] }, key);
    }
  });
}

test('a run that switches harness without a model drops a model chosen for the other harness', (t) => {
  const got = resolveStepSettings({ run: { harness: 'codex' }, node: { model: 'opus' }, workflow: { harness: 'claude' }, settings: {} });
  t.deepEqual(got.harness, { value: 'codex', source: 'run' });
  t.deepEqual(got.model, { value: null, source: 'run' });
});

test('a run that names the same harness keeps the model', (t) => {
  const got = resolveStepSettings({ run: { harness: 'claude' }, node: { model: 'opus' }, workflow: { harness: 'claude' }, settings: {} });
  t.deepEqual(got.model, { value: 'opus', source: 'node' });
});

test('a run model wins even with a run harness', (t) => {
  const got = resolveStepSettings({ run: { harness: 'codex', model: 'gpt-5' }, node: { model: 'opus' }, workflow: {}, settings: {} });
  t.deepEqual(got.model, { value: 'gpt-5', source: 'run' });
});

test('tool classes per tools value; unknown values get the least', (t) => {
  t.deepEqual(toolClasses('read-only'), ['read']);
  t.deepEqual(toolClasses('edit'), ['read', 'edit']);
  t.deepEqual(toolClasses('full'), ['read', 'edit', 'execute', 'network']);
  t.deepEqual(toolClasses('root'), ['read']);
  t.deepEqual(toolClasses('constructor'), ['read']);
});
