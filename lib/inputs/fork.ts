import { fields } from './object.js';
import { intRange, nonBlank } from './kinds.js';
import { Harness, optionalReason } from './common.js';

// A fork of a run from one of its step ends (POST /api/runs/{id}/forks, fork_run). `at` is the seq
// of a StepSucceeded or StepFailed event of the run (its History and detail's `forkable` list them);
// a model alone is for the harness the fork keeps.
export const ForkInput = fields(
  { at: intRange(1, Number.MAX_SAFE_INTEGER, 'the seq of a step end (a positive integer)') },
  { goal: nonBlank(), harness: Harness, model: nonBlank(200), note: nonBlank(2000), ...optionalReason },
);
