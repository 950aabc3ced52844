import { fields } from './object.js';
import { oneOf } from './kinds.js';
import { optionalReason } from './common.js';

// Archiving a run or bringing it back (POST /api/runs/{id}/archive, archive_run).
export const ArchiveInput = fields({ state: oneOf(['Archived', 'Active'] as const) }, optionalReason);
