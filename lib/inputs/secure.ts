import { fields } from './object.js';
import { optionalReason } from './common.js';

// Committing and pushing a run's work (POST /api/runs/{id}/secure, secure_run_work).
export const SecureInput = fields({}, optionalReason);
