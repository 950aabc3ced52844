import { forbidden, type Refusal } from './refusal.js';

// Every action a supervisor takes needs a reason, recorded on the run and in its chat.
// A blank reason is no reason.
export const decideReason = (tool: string, reason: string | undefined): Refusal | null =>
  reason !== undefined && reason.trim() !== '' ? null : forbidden(`${tool} needs a reason: a supervisor says why it acts (recorded on the run and in its chat)`);
