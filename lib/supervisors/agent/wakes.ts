// Which events on a run wake the supervisor that owns it, each kind switchable in its settings
// (`wakeOn`, every kind on by default). The run's words (question, failure) are quoted as data.
import type { Stored } from '../../../journal/journal.js';
import type { RunWakeKind } from '../model.js';

export interface RunWake {
  readonly kind: RunWakeKind;
  readonly runId: string;
  readonly text: string;
}

const clip = (s: string, max = 300): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const wakeText = (runId: string, ev: Stored): RunWake | undefined => {
  const d = ev.data as Record<string, unknown>;
  switch (ev.type) {
    case 'QuestionAsked':
      return { kind: 'question', runId, text: `run ${runId} asked a question: ${JSON.stringify(clip(String(d['prompt'] ?? '')))}` };
    case 'RunFailed':
      return { kind: 'failed', runId, text: `run ${runId} failed: ${JSON.stringify(clip(String(d['reason'] ?? '')))}` };
    case 'PullRequestChecksFailed': {
      const pr = d['pullRequest'] as { url?: unknown } | undefined;
      const failing = Array.isArray(d['failing']) ? (d['failing'] as unknown[]).map(String) : [];
      return { kind: 'checksFailed', runId, text: `run ${runId}'s pull request ${String(pr?.url ?? '')} has failing checks: ${JSON.stringify(clip(failing.join(', ')))}` };
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
