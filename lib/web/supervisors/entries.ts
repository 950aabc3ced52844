import type { ChatEntry } from './shapes.js';
import { SOURCE } from './write.js';

// What one chat entry says, as plain words: who it is from, its text, and whether it is a message
// (a person's or the supervisor's) or a note about what happened (turns, wakes, actions, cards).
// Pure, so the view only lays it out; everything here ends up as text, never as HTML.

export interface Said {
  readonly who: string;
  readonly text: string;
  /** `person` and `supervisor` are the conversation; `note` is the record around it */
  readonly kind: 'person' | 'supervisor' | 'note';
}

const s = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const onRun = (run: unknown): string => (typeof run === 'string' ? ` on run ${run}` : '');

const cost = (c: unknown): string => {
  const o = c as { _tag?: string; usd?: number; why?: string } | undefined;
  if (o?._tag !== 'Unknown' && typeof o?.usd === 'number') return `cost $${o.usd.toFixed(4)}`;
  if (o?._tag === 'Unknown') return `cost unknown (${s(o.why)})`;
  return 'cost unknown';
};

export const said = (e: ChatEntry): Said => {
  if (e.type === 'Unreadable' || e.data === undefined) return { who: 'Unreadable entry', text: s((e as { detail?: string }).detail), kind: 'note' };
  const d = e.data;
  switch (e.type) {
    case 'PersonWrote': return { who: d['sender'] === SOURCE ? 'You' : s(d['sender']) || 'A person', text: s(d['text']), kind: 'person' };
    case 'SupervisorReplied': return { who: 'Supervisor', text: s(d['text']), kind: 'supervisor' };
    case 'WakeNoticed': return { who: 'Noticed', text: d['quote'] === undefined ? s(d['text']) : `${s(d['text'])}: ${s(d['quote'])}`, kind: 'note' };
    case 'TurnStarted': return { who: 'Turn started', text: `on ${s(d['harness'])}${d['model'] ? ` (${s(d['model'])})` : ''}`, kind: 'note' };
    case 'TurnFellBack': return { who: 'Turn fell back', text: `from ${s(d['from'])} to ${s(d['to'])}: ${s(d['why'])}`, kind: 'note' };
    case 'TurnEnded': return {
      who: 'Turn ended',
      text: [`${s(d['outcome'])} on ${s(d['harness'])}`, s(d['summary']), d['failure'] ? `failure: ${s(d['failure'])}` : '', cost(d['cost'])].filter(Boolean).join(' · '),
      kind: 'note',
    };
    case 'TurnInterrupted': return { who: 'Turn interrupted', text: s(d['reason']), kind: 'note' };
    case 'WakesHeld': return { who: 'Waiting', text: s(d['reason']), kind: 'note' };
    case 'ActionTaken': return { who: `Did ${s(d['tool'])}${onRun(d['run'])}`, text: `${s(d['summary'])} · reason: ${s(d['reason'])}`, kind: 'note' };
    case 'ApprovalRequested': return { who: `Asks to ${s(d['tool'])}${onRun(d['run'])}`, text: `reason: ${s(d['reason'])} (card ${s(d['cardId'])})`, kind: 'note' };
    case 'ApprovalDecided': return {
      who: `Card ${s(d['cardId'])}: ${d['decision'] === 'Approve' ? 'approved' : 'denied'}${d['sender'] ? ` by ${s(d['sender'])}` : ''}`,
      text: [`${s(d['result'])}: ${s(d['detail'])}`, d['note'] ? `note: ${s(d['note'])}` : ''].filter(Boolean).join(' · '),
      kind: 'note',
    };
    case 'HandedUp': return { who: `Handed up by ${s(d['from'])}`, text: s(d['text']), kind: 'note' };
    case 'RunReceived': return { who: `Run ${s(d['run'])} handed over by ${s(d['from'])}`, text: `reason: ${s(d['reason'])}`, kind: 'note' };
    default: return { who: e.type, text: JSON.stringify(d), kind: 'note' };
  }
};

/** entries that change what the page shows beside the chat: cards, and the view (spend, why it waits) */
export const touchesCards = (e: ChatEntry): boolean => e.type === 'ApprovalRequested' || e.type === 'ApprovalDecided';
export const touchesView = (e: ChatEntry): boolean => e.type === 'TurnEnded' || e.type === 'WakesHeld' || e.type === 'ActionTaken';
