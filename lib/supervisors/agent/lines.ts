// One prompt line per chat entry, for "since your last turn". Bookkeeping entries (turn starts,
// interruptions) are left out; the records' entries (cards, actions, hand_ups) are described by lib/supervisors, else shown as JSON.
import type { ChatEntry } from '../../../projections/supervisor-turns.js';

const clip = (s: string, max = 1000): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const d = (e: ChatEntry): Record<string, unknown> => (e.data ?? {}) as Record<string, unknown>;

const own = (e: ChatEntry): string | null | undefined => {
  const x = d(e);
  switch (e.type) {
    case 'PersonWrote':
      return `Person${x['sender'] ? ` (${String(x['sender'])})` : ''} wrote: ${clip(String(x['text']))}`;
    case 'SupervisorReplied':
      return `You replied: ${clip(String(x['text']), 400)}`;
    case 'WakeNoticed':
      return `Woken: ${String(x['text'])}`;
    case 'TurnEnded':
      return x['outcome'] === 'success' ? null : `Your turn ended without finishing (${String(x['failure'] ?? x['outcome'])}): ${clip(String(x['summary']), 300)}`;
    case 'TurnFellBack':
      return `Your turn moved from ${String(x['from'])} to ${String(x['to'])} (out of quota)`;
    case 'WakesHeld':
      return `Wakes were held: ${String(x['reason'])}`;
    case 'TurnStarted':
    case 'TurnInterrupted':
      return null;
    default:
      return undefined;
  }
};

export const entryLine = (e: ChatEntry, describe: (type: string, data: unknown) => string | undefined): string | null => {
  const mine = own(e);
  if (mine !== undefined) return mine;
  return describe(e.type, e.data) ?? `${e.type}: ${clip(JSON.stringify(e.data ?? {}), 600)}`;
};

export const entryLines = (entries: readonly ChatEntry[], describe: (type: string, data: unknown) => string | undefined): string[] =>
  entries.map((e) => entryLine(e, describe)).filter((l): l is string => l !== null).map((l) => `- ${l}`);
