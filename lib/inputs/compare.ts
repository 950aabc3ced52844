import { fields } from './object.js';
import { RunId } from './common.js';

// GET /api/compare?a=&b=: the two runs, by id (any two of one project).
export const CompareQuery = fields({ a: RunId, b: RunId }, {});
