import { fields } from './object.js';
import { nonBlank } from './kinds.js';
import { optionalReason } from './common.js';

// Replacing a run's goal (POST /api/runs/{id}/goal, revise_goal).
export const ReviseGoalInput = fields({ goal: nonBlank() }, optionalReason);
