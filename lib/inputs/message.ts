import { fields } from './object.js';
import { nonBlank, oneOf } from './kinds.js';
import { optionalReason } from './common.js';

// A message to a run's agent (POST /api/runs/{id}/messages, message_run).
export const MessageInput = fields({ text: nonBlank(), delivery: oneOf(['Resume', 'Hold'] as const) }, optionalReason);
