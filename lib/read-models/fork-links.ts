import type { Journal } from '../../journal/journal.js';
import type { RunStreams } from '../state/run-stream.js';

// The source side of forks: which runs were forked from which, kept current from appends (a fork's
// RunCreated names its source), so reading a run's forks never scans the runs. The link lives only
// in the fork's own journal: a fork is one append, whole or absent, and so is its link.

export class ForkLinks {
  private readonly bySource = new Map<string, string[]>();

  constructor(runs: RunStreams, journal: Journal) {
    for (const s of runs.all()) if (s.forkedFrom) this.add(s.forkedFrom.run, s.runId);
    journal.subscribe((stream, events) => {
      if (!stream.startsWith('run:') || !events.some((e) => e.type === 'RunCreated')) return;
      const fork = runs.get(stream.slice(4));
      if (fork?.forkedFrom) this.add(fork.forkedFrom.run, fork.runId);
    });
  }

  private add(source: string, fork: string): void {
    const forks = this.bySource.get(source) ?? [];
    if (!forks.includes(fork)) this.bySource.set(source, [...forks, fork]);
  }

  /** the forks of a run, oldest first */
  of(runId: string): readonly string[] {
    return this.bySource.get(runId) ?? [];
  }
}
