import { fields } from './object.js';
import { nonBlank } from './kinds.js';
import { optionalReason } from './common.js';

// A follow-up of an ended run (POST /api/runs/{id}/follow-ups, follow_up_run): what the agent is to do next.
export const FollowUpInput = fields({ text: nonBlank() }, optionalReason);
