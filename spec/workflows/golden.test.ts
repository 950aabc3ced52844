import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePersona } from '../../lib/workflows/persona-file.js';
import { validateWorkflow } from '../../lib/workflows/validate.js';
import { FIXTURES, isolateHome, SHIPPED_PERSONAS, SHIPPED_WORKFLOWS } from './helpers.js';

// The golden suite: every fixture's diagnostics, exactly. A fixture is <name>.dot beside
// <name>.expected.json ({loads, errors, warnings}); prompt files resolve inside its folder.

isolateHome();

const PERSONAS = new Map<string, string | null>([
  ['planner', null], ['implementer', null], ['reviewer', null],
  ['broken', 'the persona has no prompt (write it below the header)'],
]);

const fixtures = (kind: 'valid' | 'invalid'): string[] =>
  readdirSync(join(FIXTURES, kind)).filter((f) => f.endsWith('.dot')).map((f) => f.slice(0, -'.dot'.length)).sort();

const check = (kind: 'valid' | 'invalid', name: string) => {
  const dir = join(FIXTURES, kind);
  const got = validateWorkflow(readFileSync(join(dir, `${name}.dot`), 'utf8'), { name, origin: 'project', files: { dir }, personas: PERSONAS });
  const expected = JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')) as unknown;
  return { got, expected };
};

test('there are golden fixtures of both kinds', (t) => {
  t.true(fixtures('valid').length >= 4);
  t.true(fixtures('invalid').length >= 18);
});

for (const name of fixtures('valid')) {
  test(`valid/${name}: loads, with exactly the expected warnings`, (t) => {
    const { got, expected } = check('valid', name);
    const { loads, errors, warnings } = got.result;
    t.deepEqual({ loads, errors, warnings }, expected);
    t.true(loads);
    t.truthy(got.workflow);
  });
}

for (const name of fixtures('invalid')) {
  test(`invalid/${name}: does not load, with exactly the expected diagnostics`, (t) => {
    const { got, expected } = check('invalid', name);
    const { loads, errors, warnings } = got.result;
    t.deepEqual({ loads, errors, warnings }, expected);
    t.false(loads);
    t.true(errors.length > 0);
    t.is(got.workflow, undefined);
  });
}

const shippedPersonas = (): Map<string, string | null> => {
  const names = readdirSync(SHIPPED_PERSONAS).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
  return new Map(names.map((n) => {
    const p = parsePersona(n, 'shipped', readFileSync(join(SHIPPED_PERSONAS, `${n}.md`), 'utf8'));
    return [n, p.problems.length ? p.problems.join('; ') : null];
  }));
};

test('shipped personas all load, and the shipped three are there', (t) => {
  const personas = shippedPersonas();
  t.deepEqual([...personas.keys()].sort(), ['implementer', 'planner', 'reviewer']);
  for (const [name, problem] of personas) t.is(problem, null, name);
});

for (const name of ['default', 'ticket', 'epic']) {
  test(`shipped workflow ${name} validates with no errors and no warnings`, (t) => {
    const source = readFileSync(join(SHIPPED_WORKFLOWS, `${name}.dot`), 'utf8');
    const got = validateWorkflow(source, { name, origin: 'shipped', files: { dir: SHIPPED_WORKFLOWS }, personas: shippedPersonas() });
    t.deepEqual(got.result.errors, []);
    t.deepEqual(got.result.warnings, []);
    t.true(got.result.loads);
    t.false(got.workflow?.source.includes('"@prompts/'), 'prompt files are inlined');
  });
}

test('shipped ticket and epic declare ticket_url and use it', (t) => {
  for (const name of ['ticket', 'epic']) {
    const source = readFileSync(join(SHIPPED_WORKFLOWS, `${name}.dot`), 'utf8');
    const wf = validateWorkflow(source, { name, origin: 'shipped', files: { dir: SHIPPED_WORKFLOWS }, personas: shippedPersonas() }).workflow;
    t.deepEqual(wf?.inputs, ['ticket_url']);
    t.true(wf?.nodes.some((n) => n.prompt?.includes('{{inputs.ticket_url}}')), name);
  }
});

test('the shipped workflows are exactly default, ticket, epic', (t) => {
  t.deepEqual(readdirSync(SHIPPED_WORKFLOWS).filter((f) => f.endsWith('.dot')).sort(), ['default.dot', 'epic.dot', 'ticket.dot']);
});
