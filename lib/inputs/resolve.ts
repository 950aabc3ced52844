import { fields } from './object.js';
import { optionalReason } from './common.js';

// Marking an unsuccessful run resolved (POST /api/runs/{id}/resolve, resolve_run).
export const ResolveInput = fields({}, optionalReason);
