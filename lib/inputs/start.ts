import * as t from 'io-ts';
import { extend, fields, withRule } from './object.js';
import { nonBlank, oneLine, usdBudget } from './kinds.js';
import { Harness, ProjectRef, optionalReason } from './common.js';

// Starting a run (POST /api/runs, start_run). Both doors take these fields and rules; HTTP adds its
// legacy `ticket` and `start` (the spec gives them to POST /api/runs only), MCP requires `goal`.

const modelNeedsHarness = (a: { readonly harness?: string; readonly model?: string }): string | null =>
  a.model !== undefined && a.harness === undefined ? 'model may be given only together with harness' : null;

export const StartInput = fields(
  { project: ProjectRef },
  { goal: nonBlank(), workflow: nonBlank(200), inputs: t.record(t.string, t.string), title: oneLine(80), harness: Harness, model: nonBlank(200), budgetUsd: usdBudget(), ...optionalReason },
  modelNeedsHarness,
);

/** MCP's start_run: the goal is required */
export const StartRunArgs = extend(StartInput, { goal: nonBlank() });

/** POST /api/runs: the legacy `ticket` may stand in for the goal; `start: false` records without starting */
export const StartRunBody = withRule(
  extend(StartInput, {}, { start: t.boolean, ticket: nonBlank() }, 'field'),
  (b) => (b.goal === undefined && b.ticket === undefined ? 'goal is required unless ticket is given' : null),
);
