import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { checkGraph } from './graph-checks.js';
import type { StepNode, Workflow } from '../../domain/workflow.js';
import { parseWorkflow } from './parse.js';

// The built-in workflow a follow-up walks. Kept out of the catalog's folders on purpose: a new run
// cannot pick it (it has nothing to continue), and no project or home file can replace it.
// When the run it continues walked a workflow with a `verify` step (an agent or command step, as the
// shipped default has), the follow-up runs that step after its turn, so the agent's new work is
// checked the way the first was; a failed verification fails the follow-up with its reason.

let cached: Workflow | undefined;

const VERIFY = 'verify';

/** the follow-up workflow for a run that walked `source`: with source's verify step after the turn when it has one */
export const followUpWorkflow = (source?: Workflow): Workflow => {
  const base = builtIn();
  const verify = source?.nodes.find((n) => n.id === VERIFY && (n.kind === 'agent' || n.kind === 'command'));
  return verify && source ? withVerify(base, verify, source) : base;
};

const withVerify = (base: Workflow, verify: StepNode, source: Workflow): Workflow => ({
  ...base,
  description: `${base.description} Then the verify step of ${source.name}.`,
  version: `${base.version}+${source.version}`,
  nodes: [...base.nodes.filter((n) => n.kind !== 'exit'), verify, ...base.nodes.filter((n) => n.kind === 'exit')],
  routes: [
    ...base.routes.filter((r) => r.from !== 'follow_up'),
    { from: 'follow_up', to: VERIFY, condition: 'success' },
    { from: 'follow_up', to: 'done' },
    { from: VERIFY, to: 'done', condition: 'success' },
  ],
  // what the Workflow tab draws: the built-in graph with the step added (its prompt is in the node)
  source: base.source.replace(/\}\s*$/, [
    `  // added: the verify step of ${source.name}, the workflow of the run this follows up`,
    `  ${VERIFY} [kind=${verify.kind}, label=${JSON.stringify(verify.label ?? 'Verify')}]`,
    `  follow_up -> ${VERIFY} [condition="outcome=success"]`,
    `  ${VERIFY} -> done [condition="outcome=success"]`,
    '}',
    '',
  ].join('\n')),
});

const builtIn = (): Workflow => {
  if (cached) return cached;
  const file = join(packageRoot(), 'lib', 'workflows', 'built-in', 'follow-up.dot');
  const parsed = parseWorkflow(readFileSync(file, 'utf8'), { name: 'follow-up', origin: 'shipped' });
  const findings = parsed.findings;
  if (parsed.draft) checkGraph(parsed.draft, findings);
  if (!parsed.draft || findings.errors.length > 0) throw new Error(`the built-in follow-up workflow does not load: ${JSON.stringify(findings.errors)}`);
  cached = parsed.draft.workflow;
  return cached;
};
