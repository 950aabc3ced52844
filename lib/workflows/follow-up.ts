import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { checkGraph } from './graph-checks.js';
import type { Workflow } from './model.js';
import { parseWorkflow } from './parse.js';

// The built-in workflow a follow-up walks. Kept out of the catalog's folders on purpose: a new run
// cannot pick it (it has nothing to continue), and no project or home file can replace it.
// Why no verify step: a follow-up is the person's next instruction to the same agent; they read
// the result and follow up again (or restart on the full workflow) rather than run a second review.

let cached: Workflow | undefined;

export const followUpWorkflow = (): Workflow => {
  if (cached) return cached;
  const file = join(packageRoot(), 'lib', 'workflows', 'built-in', 'follow-up.dot');
  const parsed = parseWorkflow(readFileSync(file, 'utf8'), { name: 'follow-up', origin: 'shipped' });
  const findings = parsed.findings;
  if (parsed.draft) checkGraph(parsed.draft, findings);
  if (!parsed.draft || findings.errors.length > 0) throw new Error(`the built-in follow-up workflow does not load: ${JSON.stringify(findings.errors)}`);
  cached = parsed.draft.workflow;
  return cached;
};
