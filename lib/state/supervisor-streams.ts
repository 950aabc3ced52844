import type { Journal } from '../../journal/journal.js';
import { SUPERVISOR_EVENT_CODECS, type SupervisorEvent } from '../../journal/supervisor-events.js';
import { evolveSupervisor, type SupervisorState } from '../../projections/supervisor.js';
import { EventStream, type StreamKind } from './event-stream.js';

// Every supervisor's state in memory, folded from its stream `supervisor:<id>` at start and kept
// up to date on each append. The streams are small: settings changes, notes and one cost per turn.

export type SupervisorStreams = EventStream<SupervisorState, SupervisorEvent>;

export const supervisorStream = (id: string): string => `supervisor:${id}`;

const SUPERVISOR_KIND: StreamKind<SupervisorState, SupervisorEvent> = {
  prefix: 'supervisor:',
  codecs: SUPERVISOR_EVENT_CODECS,
  evolve: (s, e) => evolveSupervisor(s, e, e.at, e.seq),
  // an event that does not decode is passed over: the supervisor keeps what the others made it
  unreadable: (s, u) => (s ? { ...s, seq: u.seq } : s),
};

export const openSupervisorStreams = (journal: Journal): SupervisorStreams => {
  const streams = new EventStream(journal, SUPERVISOR_KIND);
  streams.load();
  return streams;
};

/** the global supervisor first, then project supervisors oldest first */
export const supervisorsInOrder = (streams: SupervisorStreams): SupervisorState[] =>
  [...streams.all()].sort((a, b) => (a.project === null ? -1 : b.project === null ? 1 : a.createdAt < b.createdAt ? -1 : 1));
