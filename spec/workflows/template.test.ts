import test from 'ava';
import { placeholdersIn, renderPrompt } from '../../lib/workflows/template.js';

const ctx = {
  goal: 'Add dark mode',
  inputs: { ticket_url: 'https://example.test/T-1', depth: '2' },
  previous: { node: 'verify', outcome: 'failure', summary: 'tests fail in ui.spec.ts' },
};

test('goal, inputs and previous are filled in', (t) => {
  const out = renderPrompt('Goal: {{goal}}. Ticket {{inputs.ticket_url}} depth {{ inputs.depth }}. {{previous.node}} said {{previous.outcome}}: {{previous.summary}}', ctx);
  t.is(out, 'Goal: Add dark mode. Ticket https://example.test/T-1 depth 2. verify said failure: tests fail in ui.spec.ts');
});

test('unknown placeholders and inputs the run was not given stay visible', (t) => {
  t.is(renderPrompt('{{goals}} {{inputs.missing}} {{previous.mood}} {{}} {{ inputs. }}', ctx), '{{goals}} {{inputs.missing}} {{previous.mood}} {{}} {{ inputs. }}');
});

test('previous is empty on the first step', (t) => {
  t.is(renderPrompt('[{{previous.outcome}}|{{previous.summary}}] {{goal}}', { goal: 'g', inputs: {} }), '[|] g');
});

test('values are data: placeholders inside values are never expanded', (t) => {
  const sneaky = {
    goal: 'Do {{inputs.secret}} and {{goal}}',
    inputs: { secret: 'SECRET', note: '$& $1 $$' },
    previous: { node: 'n', outcome: 'success', summary: '{{goal}}' },
  };
  t.is(renderPrompt('{{goal}} / {{previous.summary}} / {{inputs.note}}', sneaky), 'Do {{inputs.secret}} and {{goal}} / {{goal}} / $& $1 $$');
});

test('inputs that only exist on the prototype are not inputs', (t) => {
  t.is(renderPrompt('{{inputs.constructor}} {{inputs.toString}}', { goal: '', inputs: {} }), '{{inputs.constructor}} {{inputs.toString}}');
});

test('placeholdersIn lists what a template uses', (t) => {
  t.deepEqual(placeholdersIn('{{goal}} {{inputs.a}} {{previous.summary}} {{weird}}'), [
    { kind: 'goal' }, { kind: 'input', name: 'a' }, { kind: 'previous', field: 'summary' }, { kind: 'unknown', text: 'weird' },
  ]);
});

test('{{preview.url}} is the running preview\'s URL, and stays as written when none runs', (t) => {
  t.is(renderPrompt('Test {{ preview.url }}health', { ...ctx, preview: { url: 'http://127.0.0.1:7420/preview/r1/' } }), 'Test http://127.0.0.1:7420/preview/r1/health');
  t.is(renderPrompt('Test {{preview.url}}', ctx), 'Test {{preview.url}}');
  t.deepEqual(placeholdersIn('{{preview.url}} {{preview.port}}'), [{ kind: 'preview' }, { kind: 'unknown', text: 'preview.port' }]);
});
