import type { Journal } from '../../journal/journal.js';
import { subscribeRuns, type RecordedRunEvent } from '../../journal/typed-subscribe.js';
import type { RunState } from '../../projections/run-state.js';
import { localDay } from '../../domain/supervisor.js';

// What each project has spent per local day, in memory: started from the runs' folded usage (their
// snapshots, not a journal scan) and kept current from each UsageRecorded as it is appended. The
// queue asks it before it starts a run of a project with a daily budget (docs/usage.md).

export class ProjectSpend {
  private readonly days = new Map<string, Map<string, number>>();

  constructor(runs: Iterable<RunState>, private readonly projectOf: (runId: string) => string | undefined) {
    for (const r of runs) for (const [day, usd] of Object.entries(r.usage?.days ?? {})) this.add(r.projectId, day, usd);
  }

  /** follow the journal: each UsageRecorded of known cost adds to its project's day */
  follow(journal: Journal): () => void {
    return subscribeRuns(journal, (runId, events) => {
      for (const e of events) this.take(runId, e);
    });
  }

  spent(projectId: string, day: string): number {
    return this.days.get(projectId)?.get(day) ?? 0;
  }

  private take(runId: string, e: RecordedRunEvent): void {
    if (e.type !== 'UsageRecorded') return;
    const cost = e.data.cost;
    const project = this.projectOf(runId);
    if (!project || cost._tag === 'Unknown') return;
    this.add(project, localDay(new Date(e.at)), cost.usd);
  }

  private add(projectId: string, day: string, usd: number): void {
    const days = this.days.get(projectId) ?? new Map<string, number>();
    days.set(day, (days.get(day) ?? 0) + usd);
    this.days.set(projectId, days);
  }
}
