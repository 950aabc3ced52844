import type { Journal } from '../../journal/journal.js';
import type { SupervisorState } from '../../projections/supervisor.js';
import { chatStream, decodeChatEntry } from './chat.js';

// read_supervisor_activity: short lines about what project supervisors did (actions, approval
// cards and their decisions, hand_ups, handovers), the 50 most recent, oldest first. Read from the
// tail of each project supervisor's chat: turns and replies in between are skipped.

export const ACTIVITY_LINES = 50;
/** entries read from the end of each chat: enough to find 50 action entries among a turn's chatter */
const TAIL = 1000;

const clip = (s: string, max = 200): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const lineOf = (sup: SupervisorState, e: NonNullable<ReturnType<typeof decodeChatEntry>>): string | undefined => {
  const who = `${sup.id} (project ${sup.project})`;
  switch (e.type) {
    case 'ActionTaken': return `${e.at} ${who} ${e.data.tool}${e.data.run ? ` on ${e.data.run}` : ''}: ${e.data.summary}${e.data.reason ? ` (reason: ${e.data.reason})` : ''}`;
    case 'ApprovalRequested': return `${e.at} ${who} asked approval for ${e.data.tool}${e.data.run ? ` on ${e.data.run}` : ''} (card ${e.data.cardId}; reason: ${e.data.reason})`;
    case 'ApprovalDecided': return `${e.at} ${who} card ${e.data.cardId}: ${e.data.decision} → ${e.data.result}`;
    case 'HandedUp': case 'RunReceived': case 'ApprovalCarryingOut': return undefined;
  }
};

export const activityLines = (journal: Journal, sups: readonly SupervisorState[]): string[] => {
  const lines: { at: string; text: string }[] = [];
  for (const s of sups) {
    if (s.project === null) continue;
    const stream = chatStream(s.id);
    for (const raw of journal.read(stream, Math.max(1, journal.head(stream) - TAIL + 1))) {
      const e = decodeChatEntry(raw);
      const text = e && lineOf(s, e);
      if (text) lines.push({ at: raw.at, text: clip(text) });
    }
  }
  return lines.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(-ACTIVITY_LINES).map((l) => l.text);
};
