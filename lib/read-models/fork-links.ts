import type { Journal } from '../../journal/journal.js';
import type { RunStreams } from '../state/run-stream.js';

// The source side of forks: which runs were forked from which, kept current from appends (a fork's
// RunCreated names its source), so reading a run's forks never scans the runs. The link lives only
// in the fork's own journal: a fork is one append, whole or absent, and so is its link.

/** told of each fork made while the service runs: the source's run id and the fork's */
export type ForkListener = (source: string, fork: string) => void;

export class ForkLinks {
  private readonly bySource = new Map<string, string[]>();
  private readonly listeners = new Set<ForkListener>();

  constructor(runs: RunStreams, journal: Journal) {
    for (const s of runs.all()) if (s.forkedFrom) this.add(s.forkedFrom.run, s.runId);
    journal.subscribe((stream, events) => {
      if (!stream.startsWith('run:') || !events.some((e) => e.type === 'RunCreated')) return;
      const fork = runs.get(stream.slice(4));
      if (fork?.forkedFrom && this.add(fork.forkedFrom.run, fork.runId)) for (const l of this.listeners) l(fork.forkedFrom.run, fork.runId);
    });
  }

  private add(source: string, fork: string): boolean {
    const forks = this.bySource.get(source) ?? [];
    if (forks.includes(fork)) return false;
    this.bySource.set(source, [...forks, fork]);
    return true;
  }

  /** The source's open pages show its forks: nothing is appended to the source's journal, so they
   * hear of a new one here (lib/push/run-watch.ts). Returns the unsubscribe. */
  onFork(l: ForkListener): () => void {
    this.listeners.add(l);
    return () => { this.listeners.delete(l); };
  }

  /** the forks of a run, oldest first */
  of(runId: string): readonly string[] {
    return this.bySource.get(runId) ?? [];
  }
}
