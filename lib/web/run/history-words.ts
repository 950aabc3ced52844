import type { HistoryEvent } from '../../read-models/pages.js';
import { SHIP_WORDS } from './history-ship.js';
import { by, colon, list, num, plural, short, str, who, type Data, type TitleOf, type Words } from './history-text.js';

// History in words (issue 32): each event said as a person would write it, past tense, with no
// type names or sequence numbers; the raw event stays one click away (feeds.tsx). One small entry
// per event type; a type with none still reads as words ("Pull request watch started.").

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const step = (d: Data): string => `step ${str(d, 'node') ?? ''}`.trim();

const answerText = (a: unknown): string => (Array.isArray(a) ? a.join(', ') : typeof a === 'string' ? a : '');

const RUN_WORDS: Readonly<Record<string, Words>> = {
  RunCreated: (d, t) => `${who(d)} created the run “${short(str(d, 'title'), 120)}”${d['restartOf'] ? ` as a restart of “${t(str(d, 'restartOf') ?? '')}”` : ''}.`,
  RunQueued: by('queued the run'),
  RunMovedToFront: by('moved the run to the front of the queue'),
  RunStarted: (d) => (str(d, 'node') ? `The run started at step ${str(d, 'node')}.` : 'The run started.'),
  WorktreesPrepared: (d) => {
    const branches = list(d, 'checkouts').map((c) => str(c as Data, 'branch')).filter(Boolean);
    return branches.length > 1 ? `svc made the run's ${branches.length} worktrees, on branches ${branches.join(', ')}.` : `svc made the run's worktree${branches[0] ? ` on branch ${branches[0]}` : ''}.`;
  },
  WorktreesRemoved: () => "The run's worktrees were removed.",
  WorkKept: (d) => `svc kept the uncommitted work of ${plural(list(d, 'kept').length, 'folder')} before its worktree went.`,
  WorktreesRestored: () => "svc made the run's worktrees again and restored the work it kept.",
  StepStarted: (d) => `Step ${str(d, 'node') ?? ''} started${str(d, 'harness') ? ` on ${str(d, 'harness')}` : ''}${(num(d, 'attempt') ?? 1) > 1 ? ` (attempt ${num(d, 'attempt')})` : ''}.`,
  StepSessionStarted: () => "The agent's session began.",
  StepProcessStarted: () => "The agent's process started.",
  StepProcessKilled: (d) => `svc stopped ${plural(num(d, 'processes') ?? 0, 'process', 'processes')} left running from before a restart.`,
  OutcomeReported: (d) => `The agent reported that the step ${str(d, 'outcome') === 'failure' ? 'failed' : 'succeeded'}${colon(str(d, 'summary'))}.`,
  StepSucceeded: (d) => `${cap(step(d))} succeeded${colon(str(d, 'summary'))}.`,
  StepFailed: (d) => `${cap(step(d))} failed${colon(str(d, 'failure') ?? str(d, 'summary'))}.`,
  StepInterrupted: (d) => `${cap(step(d))} was interrupted${colon(str(d, 'reason'))}.`,
  AgentReplied: (d) => `The agent replied${colon(str(d, 'text'))}.`,
  RunPaused: by('paused the run'),
  RunResumed: by('resumed the run'),
  RunRetried: by('retried the run'),
  RunAborted: by('aborted the run'),
  RunArchived: by('archived the run'),
  RunUnarchived: by('unarchived the run'),
  RunResolved: by('marked the run resolved'),
  RunRestarted: (d, t) => `${who(d)} restarted the run as “${t(str(d, 'as') ?? '')}”${colon(str(d, 'reason'))}.`,
  RunFollowedUp: (d, t) => `${who(d)} followed the run up with “${t(str(d, 'as') ?? '')}”.`,
  HarnessChanged: (d) => `${who(d)} changed the harness to ${str(d, 'harness') ?? 'another'}${colon(str(d, 'reason'))}.`,
  Jumped: (d) => `${who(d)} moved the run to step ${str(d, 'node') ?? ''}${colon(str(d, 'reason'))}.`,
  WaitSkipped: by('skipped the wait'),
  RunSucceeded: (d) => `The run succeeded${colon(str(d, 'summary'))}.`,
  RunFailed: (d) => `The run failed${colon(str(d, 'reason'))}.`,
  GoalRevised: (d) => `${who(d)} revised the goal${colon(str(d, 'goal'))}.`,
  MessageSent: (d) => `${who(d)} sent a message${str(d, 'delivery') === 'Hold' ? ' for the next turn' : ''}${colon(str(d, 'text'))}.`,
  ReviewSubmitted: (d) => `${who(d)} submitted a review with ${plural(list(d, 'comments').length, 'comment')}.`,
  MessageDelivered: () => 'The message reached the agent.',
  MessageUndelivered: (d) => `A message never reached the agent${colon(str(d, 'reason'))}.`,
  QuestionAsked: (d) => `The agent asked${colon(str(d, 'prompt'))}${list(d, 'options').length ? ` (${list(d, 'options').join(', ')})` : ''}.`,
  QuestionAnswered: (d) => `${who(d)} answered${colon(answerText(d['answer']))}.`,
  QuestionWithdrawn: (d) => `The question was withdrawn${colon(str(d, 'reason'))}.`,
  RunHandedOver: (d) => `Supervisor ${str(d, 'from') ?? ''} handed the run to ${str(d, 'to') ?? 'another'}${colon(str(d, 'reason'))}.`,
  ServiceNoted: (d) => `svc noted${colon(str(d, 'text'))}.`,
  AttemptKept: (d, t) => `${who(d)} kept the attempt “${t(str(d, 'kept') ?? '')}”${list(d, 'archived').length ? ` and archived the other ${plural(list(d, 'archived').length, 'attempt')}` : ''}.`,
  Unreadable: () => 'An event could not be read.',
};

/** An event's name as words: StepStarted → "Step started" (the fallback, and the raw view's label). */
export const eventLabel = (type: string): string => cap(type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());

/** The event as a sentence. */
export const historyWords = (e: HistoryEvent, titleOf: TitleOf): string => {
  const words = RUN_WORDS[e.type] ?? SHIP_WORDS[e.type];
  const data = e.data && typeof e.data === 'object' ? (e.data as Data) : {};
  return words ? words(data, titleOf) : `${eventLabel(e.type)}.`;
};
