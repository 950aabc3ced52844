// Which events on a run wake the supervisor that owns it, each kind switchable in its settings
// (`wakeOn`, every kind on by default). The notice is in the service's words; the run's own words
// (its question, its failure, the pull request and its check names) are kept apart in `quote`, so
// a prompt can fence them as data (lib/untrusted.ts) and never mix them with what people wrote.
import type { Stored } from '../../../journal/journal.js';
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

const wakeText = (runId: string, ev: Stored): RunWake | undefined => {
  const d = ev.data as Record<string, unknown>;
  switch (ev.type) {
    case 'QuestionAsked':
      return { kind: 'question', runId, text: `run ${runId} asked a question`, quote: clip(String(d['prompt'] ?? '')) };
    case 'RunFailed':
      return { kind: 'failed', runId, text: `run ${runId} failed`, quote: clip(String(d['reason'] ?? '')) };
    case 'PullRequestChecksFailed': {
      const pr = d['pullRequest'] as { url?: unknown } | undefined;
      const failing = Array.isArray(d['failing']) ? (d['failing'] as unknown[]).map(String) : [];
      return { kind: 'checksFailed', runId, text: `run ${runId}'s pull request has failing checks`, quote: clip(`${String(pr?.url ?? '')}\nfailing checks: ${failing.join(', ')}`) };
    }
    case 'StepStarted':
      return d['kind'] === 'gate' ? { kind: 'gate', runId, text: `run ${runId} stopped at gate ${String(d['node'])}` } : undefined;
    default:
      return undefined;
  }
};

/** The wakes among a run's newly appended events. */
export const runWakes = (runId: string, events: readonly Stored[]): RunWake[] =>
  events.map((e) => wakeText(runId, e)).filter((w): w is RunWake => w !== undefined);
