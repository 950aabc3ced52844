import * as t from 'io-ts';
import { extend, fields, withRule } from './object.js';
import { nonBlank, oneLine, usdBudget } from './kinds.js';
import { Harness, ProjectRef, optionalReason } from './common.js';

// Starting a run (POST /api/runs, start_run). Both doors take these fields and rules; HTTP adds its
// legacy `ticket` and `start` (the spec gives them to POST /api/runs only), MCP requires `goal`.

const modelNeedsHarness = (a: { readonly harness?: string; readonly model?: string }): string | null =>
  a.model !== undefined && a.harness === undefined ? 'model may be given only together with harness' : null;

/** one agent of several the goal is tried on at once */
export const AttemptInput = fields({ harness: Harness }, { model: nonBlank(200) });
export const MIN_ATTEMPTS = 2;
export const MAX_ATTEMPTS = 6;

const attemptKey = (a: { readonly harness: string; readonly model?: string }): string => `${a.harness}${a.model !== undefined ? ` with model ${a.model}` : ''}`;

// Attempts are siblings that differ only in their agent: two alike would be the same run twice,
// and a top-level harness or model would say which agent when the attempts say it per run.
const attemptsRule = (a: { readonly harness?: string; readonly model?: string; readonly attempts?: readonly { readonly harness: string; readonly model?: string }[] }): string | null => {
  if (a.attempts === undefined) return null;
  if (a.harness !== undefined || a.model !== undefined) return 'attempts cannot be given together with harness or model: each attempt names its own';
  const n = a.attempts.length;
  if (n < MIN_ATTEMPTS || n > MAX_ATTEMPTS) return `attempts must list ${MIN_ATTEMPTS} to ${MAX_ATTEMPTS} agents (got ${n})`;
  const keys = a.attempts.map(attemptKey);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  return twice === undefined ? null : `attempts must differ: ${twice} is listed more than once`;
};

export const StartInput = fields(
  { project: ProjectRef },
  {
    goal: nonBlank(), workflow: nonBlank(200), inputs: t.record(t.string, t.string), title: oneLine(80), harness: Harness, model: nonBlank(200),
    attempts: t.array(AttemptInput), budgetUsd: usdBudget(), ...optionalReason,
  },
  (a) => modelNeedsHarness(a) ?? attemptsRule(a),
);

/** MCP's start_run: the goal is required */
export const StartRunArgs = extend(StartInput, { goal: nonBlank() });

/** POST /api/runs: the legacy `ticket` may stand in for the goal; `start: false` records without starting */
export const StartRunBody = withRule(
  extend(StartInput, {}, { start: t.boolean, ticket: nonBlank() }, 'field'),
  (b) => (b.goal === undefined && b.ticket === undefined ? 'goal is required unless ticket is given' : null),
);
