// One prompt line per chat entry, for "since your last turn". Bookkeeping entries (turn starts,
// interruptions) are left out; the records' entries (cards, actions, hand_ups) are described by
// lib/supervisors, else shown as JSON. What people wrote is theirs; the words of runs, CLIs and
// unknown entries are fenced as data.
import type { ChatEntry } from '../../../projections/supervisor-turns.js';
import { untrusted } from '../../untrusted.js';

const clip = (s: string, max = 1000): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const d = (e: ChatEntry): Record<string, unknown> => (e.data ?? {}) as Record<string, unknown>;

const QUOTE_LABEL: Readonly<Record<string, string>> = {
  question: "The run's question",
  failed: 'Why the run failed',
  checksFailed: 'The pull request and its failing checks',
};

// A notice from before `quote` existed holds the run's words inside its text: all of it is fenced.
const woken = (x: Record<string, unknown>): string => {
  if (typeof x['quote'] !== 'string') return `Woken by a run.\n${untrusted('The notice (it quotes the run)', String(x['text']))}`;
  return `Woken: ${String(x['text'])}.\n${untrusted(QUOTE_LABEL[String(x['kind'])] ?? 'What the run said', x['quote'])}`;
};

const own = (e: ChatEntry): string | null | undefined => {
  const x = d(e);
  switch (e.type) {
    case 'PersonWrote':
      return `Person${x['sender'] ? ` (${String(x['sender'])})` : ''} wrote: ${clip(String(x['text']))}`;
    case 'SupervisorReplied':
      return `You replied: ${clip(String(x['text']), 400)}`;
    case 'WakeNoticed':
      return woken(x);
    case 'TurnEnded':
      return x['outcome'] === 'success' ? null : `Your turn ended without finishing (${String(x['failure'] ?? x['outcome'])}).\n${untrusted('What the CLI said', clip(String(x['summary']), 300))}`;
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
  return describe(e.type, e.data) ?? `An entry of type ${e.type}.\n${untrusted('Its data', clip(JSON.stringify(e.data ?? {}), 600))}`;
};

export const entryLines = (entries: readonly ChatEntry[], describe: (type: string, data: unknown) => string | undefined): string[] =>
  entries.map((e) => entryLine(e, describe)).filter((l): l is string => l !== null).map((l) => `- ${l}`);
