import type { Stored } from '../../journal/journal.js';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../journal/run-events.js';
import { SUPERVISOR_CHAT_EVENT_CODECS, type SupervisorChatEvent } from '../../journal/supervisor-chat-events.js';
import type { NeedsKind } from '../../domain/settings.js';
import { chatOwner } from '../supervisors/chat.js';
import type { Needs } from '../../projections/needs-you.js';

// What a notification is about: an event appended to a run (a question asked, a gate reached, the
// run failed, svc paused it) or to a supervisor's chat (an approval card) that makes someone
// needed. Whether the run does need someone is the one rule (projections/needs-you.ts), asked of
// the run as the event left it: a pause by a person is no notice. Pure: the caller looks up the
// run's title, project and needs. The key is the event's place in the journal (`<stream>:<seq>`),
// so one event is one notice however often it is seen.

export interface NeedsNotice {
  readonly key: string;
  readonly kind: NeedsKind;
  readonly runId: string | null;
  readonly title: string;
  readonly project: string;
  /** the words that say why (the question, the failure, the card's reason): untrusted text */
  readonly reason: string;
  readonly at: string;
}

export interface RunNames {
  readonly title: string;
  readonly project: string;
  /** what the run needs now, by the one rule, or null */
  readonly needs: Needs | null;
}

type Found = { readonly kind: NeedsKind; readonly runId: string | null; readonly reason: string } | null;

const fromEvent = (runId: string, e: RunEvent): Found => {
  switch (e.type) {
    case 'QuestionAsked': return { kind: 'question', runId, reason: e.data.prompt };
    case 'StepStarted': return e.data.kind === 'gate' ? { kind: 'gate', runId, reason: `gate ${e.data.node}: waiting for Resume` } : null;
    case 'RunFailed': return { kind: 'failed', runId, reason: e.data.reason };
    case 'RunPaused': return { kind: 'paused', runId, reason: e.data.reason ?? '' };
    default: return null;
  }
};

// the event makes a notice only when the run, as it is now, needs a person for that very reason
const fromRun = (runId: string, raw: Stored, run: RunNames | undefined): Found => {
  const e = decodeStored<RunEvent>(RUN_EVENT_CODECS, raw);
  const found = isUnreadable(e) ? null : fromEvent(runId, e);
  return found && run?.needs?.kind === found.kind ? found : null;
};

const fromChat = (supervisor: string, raw: Stored): Found => {
  const e = decodeStored<SupervisorChatEvent>(SUPERVISOR_CHAT_EVENT_CODECS, raw);
  if (isUnreadable(e) || e.type !== 'ApprovalRequested') return null;
  return { kind: 'card', runId: e.data.run, reason: `supervisor ${supervisor} asks to ${e.data.tool}: ${e.data.reason}` };
};

export const needsNoticeOf = (stream: string, e: Stored, names: (runId: string) => RunNames | undefined): NeedsNotice | null => {
  const supervisor = chatOwner(stream);
  const found = stream.startsWith('run:') ? fromRun(stream.slice(4), e, names(stream.slice(4))) : supervisor !== undefined ? fromChat(supervisor, e) : null;
  if (!found) return null;
  const run = found.runId ? names(found.runId) : undefined;
  return { key: `${stream}:${e.seq}`, kind: found.kind, runId: found.runId, title: run?.title ?? '', project: run?.project ?? '', reason: found.reason, at: e.at };
};
