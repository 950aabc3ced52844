import type { Actor } from '../domain/runs.js';

// What every command carries besides its own fields: time, who, and why. Time and new ids arrive
// on the command so that decide stays pure.
export interface CommandContext {
  readonly at: string;
  readonly by: Actor;
  readonly reason?: string;
}

export const byAndWhy = (c: CommandContext) => (c.reason === undefined ? { by: c.by } : { by: c.by, reason: c.reason });
