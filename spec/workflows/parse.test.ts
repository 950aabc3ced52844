import test from 'ava';
import { readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { findNode, nextNodeId, startNode } from '../../domain/workflow.js';
import { parseDuration, quoteText, unescapeText } from '../../lib/workflows/dot-values.js';
import { parseWorkflow } from '../../lib/workflows/parse.js';
import { validateWorkflow } from '../../lib/workflows/validate.js';
import { FIXTURES, isolateHome, tempDir, write } from './helpers.js';

isolateHome();

const PERSONAS = new Map<string, string | null>([['planner', null], ['implementer', null]]);
const dir = join(FIXTURES, 'valid');
const fullSource = readFileSync(join(dir, 'full.dot'), 'utf8');
const full = () => {
  const wf = validateWorkflow(fullSource, { name: 'full', origin: 'project', files: { dir }, personas: PERSONAS }).workflow;
  if (!wf) throw new Error('full.dot should load');
  return wf;
};

test('graph attributes: description with \\n, inputs, defaults, step defaults', (t) => {
  const wf = full();
  t.is(wf.name, 'full');
  t.is(wf.origin, 'project');
  t.is(wf.description, 'Everything at once.\nSecond line.');
  t.deepEqual(wf.inputs, ['ticket_url', 'depth']);
  t.deepEqual(wf.defaults, { depth: '2', ticket_url: '' });
  t.deepEqual(wf.stepDefaults, { harness: 'codex', tools: 'read-only', persona: 'planner', model: 'gpt-5' });
});

test('nodes: kinds, subgraph node defaults, merged attributes, durations, commands', (t) => {
  const wf = full();
  t.deepEqual(wf.nodes.map((n) => [n.id, n.kind]), [
    ['start', 'start'], ['plan', 'agent'], ['implement', 'agent'], ['check', 'command'],
    ['ask', 'gate'], ['pause', 'wait'], ['ship', 'deliver'], ['done', 'exit'],
  ]);
  const implement = findNode(wf, 'implement');
  t.is(implement?.persona, 'implementer');
  t.is(implement?.tools, 'full');
  t.is(implement?.harness, 'claude');
  t.is(implement?.model, 'opus');
  t.is(implement?.prompt, 'Implement to depth {{inputs.depth}}.\nPrevious: {{previous.outcome}} {{ previous.summary }}');
  t.is(findNode(wf, 'check')?.command, 'npm test');
  t.is(findNode(wf, 'pause')?.durationMs, 90 * 60_000);
  t.is(findNode(wf, 'ask')?.label, 'Look at it');
  t.is(findNode(wf, 'start')?.attrs.shape, 'circle');
  t.is(findNode(wf, 'plan')?.persona, undefined, 'the graph persona is a step default, not copied onto nodes');
});

test('an @file prompt is read relative to the workflow file and inlined verbatim', (t) => {
  const wf = full();
  t.is(findNode(wf, 'plan')?.prompt, readFileSync(join(dir, 'prompts/plan.md'), 'utf8'));
  t.is(findNode(wf, 'plan')?.attrs.prompt, '@prompts/plan.md');
  t.false(wf.source.includes('@prompts/plan.md'));
  t.true(wf.source.includes('prompt="Plan \\"{{goal}}\\" for {{inputs.ticket_url}}.\\nA backslash \\\\ stays.\\n"'));
});

test('routes: conditions, chains, and nextNodeId walks them', (t) => {
  const wf = full();
  t.deepEqual(wf.routes.map((r) => `${r.from}->${r.to}:${r.condition ?? '*'}`), [
    'start->plan:*', 'plan->implement:*', 'implement->check:*', 'check->ship:success', 'check->ask:failure',
    'ask->pause:*', 'pause->implement:*', 'ship->done:*',
  ]);
  t.is(startNode(wf)?.id, 'start');
  t.is(nextNodeId(wf, 'check', 'success'), 'ship');
  t.is(nextNodeId(wf, 'check', 'failure'), 'ask');
  t.is(nextNodeId(wf, 'implement', 'failure'), 'check');
});

test('version: a short content hash, the same for the inlined source, different after an edit', (t) => {
  const wf = full();
  t.regex(wf.version, /^[0-9a-f]{12}$/);
  const again = validateWorkflow(wf.source, { name: 'full', origin: 'custom', personas: PERSONAS }).workflow;
  t.is(again?.version, wf.version);
  t.deepEqual(again?.nodes.map((n) => n.prompt), wf.nodes.map((n) => n.prompt));
  const edited = validateWorkflow(fullSource.replace('npm test', 'npm run test'), { name: 'full', origin: 'project', files: { dir }, personas: PERSONAS }).workflow;
  t.not(edited?.version, wf.version);
});

test('a prompt file change changes the version even though the .dot file did not change', (t) => {
  const tmp = tempDir(t);
  const src = write(tmp, 'w.dot', 'digraph { s [kind=start] a [kind=agent, prompt="@prompts/p.md"] e [kind=exit] s -> a -> e }');
  write(tmp, 'prompts/p.md', 'first {{goal}}');
  const parse = () => parseWorkflow(readFileSync(src, 'utf8'), { name: 'w', origin: 'home', files: { dir: tmp } });
  const before = parse();
  t.deepEqual(before.findings.errors, []);
  t.deepEqual(before.files, [realpathSync(join(tmp, 'prompts/p.md'))]);
  write(tmp, 'prompts/p.md', 'second {{goal}}');
  const after = parse();
  t.is(findNode(after.draft!.workflow, 'a')?.prompt, 'second {{goal}}');
  t.not(after.draft?.workflow.version, before.draft?.workflow.version);
});

test('a prompt file reached through a symlink out of the folder is refused', (t) => {
  const tmp = tempDir(t);
  const outside = tempDir(t);
  write(outside, 'secret.md', 'do not send me anywhere');
  symlinkSync(join(outside, 'secret.md'), join(tmp, 'innocent.md'));
  const r = parseWorkflow('digraph { s [kind=start] a [kind=agent, prompt="@innocent.md"] e [kind=exit] s -> a -> e }', { name: 'w', origin: 'project', files: { dir: tmp } });
  t.deepEqual(r.findings.errors.map((e) => e.message), ["@innocent.md: a prompt file must be inside the workflow's folder"]);
});

test('a custom workflow (no folder) cannot reference prompt files', (t) => {
  const r = validateWorkflow('digraph { s [kind=start] a [kind=agent, prompt="@prompts/plan.md"] e [kind=exit] s -> a -> e }', { name: 'x', origin: 'custom', personas: PERSONAS });
  t.deepEqual(r.result.errors, [{ node: 'a', attribute: 'prompt', message: '@prompts/plan.md: only a workflow file can reference prompt files; keep this prompt inline' }]);
});

test('a prompt that merely starts with @ and has spaces is text, not a file', (t) => {
  const r = validateWorkflow('digraph { s [kind=start] a [kind=agent, prompt="@reviewer please look at {{goal}}"] e [kind=exit] s -> a -> e }', { name: 'x', origin: 'custom', personas: PERSONAS });
  t.true(r.result.loads);
  t.is(findNode(r.workflow!, 'a')?.prompt, '@reviewer please look at {{goal}}');
});

test('node statements merge; node defaults apply only after they are set', (t) => {
  const src = `digraph {
    s [kind=start]
    a [kind=agent]
    node [kind=agent, tools=full]
    b [prompt="b"]
    a [prompt="a"]
    e [kind=exit]
    s -> a -> b -> e
  }`;
  const wf = validateWorkflow(src, { name: 'x', origin: 'custom', personas: PERSONAS }).workflow;
  t.is(findNode(wf!, 'a')?.prompt, 'a');
  t.is(findNode(wf!, 'a')?.tools, undefined);
  t.is(findNode(wf!, 'b')?.tools, 'full');
});

test('durations', (t) => {
  t.deepEqual(parseDuration('30s'), { ok: true, value: 30_000 });
  t.deepEqual(parseDuration('5m'), { ok: true, value: 300_000 });
  t.deepEqual(parseDuration('2h'), { ok: true, value: 7_200_000 });
  t.deepEqual(parseDuration('1d'), { ok: true, value: 86_400_000 });
  t.deepEqual(parseDuration('1h30m'), { ok: true, value: 5_400_000 });
  for (const bad of ['', '5', 'm5', '1.5h', '-1m', '5 m', '2w']) t.false(parseDuration(bad).ok, bad);
});

test('text escapes round-trip through quoteText and the DOT parser', (t) => {
  const text = 'line "one"\nback\\slash \\n literal\r\nend\\';
  const src = `digraph { s [kind=start] a [kind=agent, prompt=${quoteText(text)}] e [kind=exit] s -> a -> e }`;
  const wf = validateWorkflow(src, { name: 'x', origin: 'custom', personas: PERSONAS }).workflow;
  t.is(findNode(wf!, 'a')?.prompt, text.replace(/\r\n/g, '\n'));
  t.is(unescapeText('a\\nb\\\\n'), 'a\nb\\n');
});

test('a backslash at the end of a line inside a quoted prompt joins the lines', (t) => {
  const src = 'digraph {\n# a hash comment\n s [kind=start]\n a [kind=agent, prompt="one \\\ntwo"]\n e [kind=exit]\n s -> a -> e\n}';
  const wf = validateWorkflow(src, { name: 'x', origin: 'custom', personas: PERSONAS }).workflow;
  t.is(findNode(wf!, 'a')?.prompt, 'one two');
});

test('an HTML-like prompt may span lines and is taken as written', (t) => {
  const src = 'digraph {\n s [kind=start]\n a [kind=agent, prompt=<line one\nline two &amp; {{goal}}>]\n e [kind=exit]\n s -> a -> e\n}';
  const wf = validateWorkflow(src, { name: 'x', origin: 'custom', personas: PERSONAS }).workflow;
  t.is(findNode(wf!, 'a')?.prompt, 'line one\nline two &amp; {{goal}}');
});

test('a misspelt attribute warns with its name and the line it is written on, on the graph, a node, an edge and a default', (t) => {
  const source = [
    'digraph w {',
    '  lable="Graph"',
    '  node [lable="every node"]',
    '  start [kind=start]',
    '  work [kind=agent, prompt="{{goal}}"]',
    '  work [lable="Work"]',
    '  done [kind=exit]',
    '  start -> work [lable="go"]',
    '  work -> done',
    '}',
  ].join('\n');
  const r = validateWorkflow(source, { name: 'w', origin: 'custom', personas: PERSONAS }).result;
  t.true(r.loads);
  t.deepEqual(r.warnings, [
    { node: null, attribute: 'lable', message: 'unknown graph attribute lable is ignored', line: 2 },
    { node: 'start', attribute: 'lable', message: 'unknown attribute lable is ignored', line: 3 },
    { node: 'work', attribute: 'lable', message: 'unknown attribute lable is ignored', line: 6 },
    { node: 'done', attribute: 'lable', message: 'unknown attribute lable is ignored', line: 3 },
    { node: 'start', attribute: 'lable', message: 'route start -> work: unknown edge attribute lable is ignored', line: 8 },
  ]);
});
