import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// codex exec --json never names the model a turn ran on (its config, a profile or its built-in
// default chooses it when svc gives none), but codex records it in the session's rollout file:
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl, one `turn_context` line per
// turn with `payload.model`. The Prices table is looked up by that name (lib/usage/prices.ts).

const MAX_DAYS = 400;

const descending = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort().reverse().map((n) => join(dir, n));
  } catch {
    return [];
  }
};

// newest day first: a turn's own thread is usually today's; a resumed one may be older
const rolloutOf = (sessions: string, threadId: string): string | undefined => {
  let days = 0;
  for (const year of descending(sessions)) {
    for (const month of descending(year)) {
      for (const day of descending(month)) {
        const hit = descending(day).find((f) => f.endsWith(`-${threadId}.jsonl`));
        if (hit) return hit;
        if (++days >= MAX_DAYS) return undefined;
      }
    }
  }
  return undefined;
};

const lastTurnModel = (text: string): string | undefined => {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]!.includes('"turn_context"')) continue;
    try {
      const row = JSON.parse(lines[i]!) as { type?: string; payload?: { model?: unknown } };
      if (row.type === 'turn_context' && typeof row.payload?.model === 'string' && row.payload.model) return row.payload.model;
    } catch { /* a line cut short: look further back */ }
  }
  return undefined;
};

/** the model codex recorded for the thread's latest turn, or undefined when it cannot be read */
export const codexTurnModel = (env: NodeJS.ProcessEnv, threadId: string | undefined): string | undefined => {
  if (!threadId || !/^[A-Za-z0-9-]+$/.test(threadId)) return undefined;
  const sessions = join(env['CODEX_HOME'] || join(env['HOME'] || homedir(), '.codex'), 'sessions');
  if (!existsSync(sessions)) return undefined;
  const file = rolloutOf(sessions, threadId);
  if (!file) return undefined;
  try {
    return lastTurnModel(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};
