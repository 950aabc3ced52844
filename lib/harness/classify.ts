// Reading a CLI's own words for "out of quota" and "cannot use the service": the one place these
// patterns live, so the three adapters agree.
import type { TurnFailure } from './adapter.js';

const QUOTA = [
  /usage limit/i,
  /you['’]?ve hit your (usage )?limit/i, // codex writes a typographic apostrophe
  // a 429 told only by its reason phrase: codex's "exceeded retry limit, last status: 429 Too Many Requests"
  /too many requests/i,
  /quota (exceeded|exhausted)/i,
  /insufficient_quota/i,
  /rate[_ ]limit/i,
  /credit balance is too low/i,
];
const UNAVAILABLE = [
  /invalid api key/i,
  /not logged in/i,
  /please run \/login/i,
  /authentication[_ ]error/i,
  /unauthori[sz]ed/i,
  /invalid x-api-key/i,
];
// No /ENOENT/ here: a CLI that is missing is told by the spawn itself (common.ts processResult),
// and an agent's own "no such file" must stay the agent's failure, not pause the run as a
// harness problem.

export const classifyText = (text: string): TurnFailure => {
  if (QUOTA.some((r) => r.test(text))) return 'quota';
  if (UNAVAILABLE.some((r) => r.test(text))) return 'unavailable';
  return 'error';
};

export const classifyStatus = (status: number | undefined): TurnFailure | undefined => {
  if (status === 429) return 'quota';
  if (status === 401 || status === 403) return 'unavailable';
  return undefined;
};

/** Long summaries are cut: the log has the whole text. */
export const clip = (text: string, max = 2000): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
