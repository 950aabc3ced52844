// Which events on a run wake the supervisor that owns it, each kind switchable in its settings
// (`wakeOn`, every kind on by default). The notice is in the service's words; the run's own words
// (its question, its failure, the pull request and its check names) are kept apart in `quote`, so
// a prompt can fence them as data (lib/untrusted.ts) and never mix them with what people wrote.
import type { RecordedRunEvent } from '../../../journal/typed-subscribe.js';
import type { RunWakeKind } from '../../../domain/supervisor.js';

export interface RunWake {
  readonly kind: RunWakeKind;
  readonly runId: string;
  /** the service's words */
  readonly text: string;
  /** the run's words the notice is about */
  readonly quote?: string;
}

const clip = (s: string, max = 300): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const wakeText = (runId: string, ev: RecordedRunEvent): RunWake | undefined => {
  switch (ev.type) {
    case 'QuestionAsked':
      return { kind: 'question', runId, text: `run ${runId} asked a question`, quote: clip(ev.data.prompt) };
    case 'RunFailed':
      return { kind: 'failed', runId, text: `run ${runId} failed`, quote: clip(ev.data.reason) };
    case 'PullRequestChecksFailed':
      return { kind: 'checksFailed', runId, text: `run ${runId}'s pull request has failing checks`, quote: clip(`${ev.data.pullRequest.url}\nfailing checks: ${ev.data.failing.join(', ')}`) };
    case 'StepStarted':
      return ev.data.kind === 'gate' ? { kind: 'gate', runId, text: `run ${runId} stopped at gate ${ev.data.node}` } : undefined;
    default:
      return undefined;
  }
};

/** The wakes among a run's newly appended events. */
export const runWakes = (runId: string, events: readonly RecordedRunEvent[]): RunWake[] =>
  events.map((e) => wakeText(runId, e)).filter((w): w is RunWake => w !== undefined);
