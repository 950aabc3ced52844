import type { Refusal } from '../../commands/refusal.js';

// The one table from refusals to HTTP statuses.
export const refusalStatus = (r: Refusal): number => {
  switch (r._tag) {
    case 'NotFound': return 404;
    case 'Invalid': return 400;
    case 'NotAllowed': return 409;
    case 'Ended': return 409;
    case 'Conflict': return 409;
    case 'Unavailable': return 409;
    case 'Forbidden': return 403;
  }
};
