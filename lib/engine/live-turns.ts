// What this process has in flight: turns of agents (and command steps), waits armed with a timer,
// runs whose worktrees are being made. Lost on a crash by design: the journal then says which
// step was in flight, and the engine records it as interrupted and runs it again.

export interface LiveStep {
  readonly runId: string;
  readonly abort: AbortController;
  send(text: string): boolean;
  /** pause the turn's silence watchdog while a person is being asked (nested holds count) */
  hold?(held: boolean): void;
  /** a watching deliver step: read its pull request now rather than at the next poll */
  checkNow?(): { cycleRunning: boolean; read: Promise<void> };
}

export class LiveTurns {
  private readonly steps = new Map<string, LiveStep>();
  private readonly waits = new Map<string, AbortController>();
  readonly preparing = new Set<string>();

  add(stepId: string, step: LiveStep): void {
    this.steps.set(stepId, step);
  }

  remove(stepId: string): void {
    this.steps.delete(stepId);
  }

  isLive(stepId: string): boolean {
    return this.steps.has(stepId);
  }

  get(stepId: string): LiveStep | undefined {
    return this.steps.get(stepId);
  }

  /** The live step of a run, if it is the run's current one. */
  forRun(runId: string, currentStepId: string | undefined): LiveStep | undefined {
    const s = currentStepId ? this.steps.get(currentStepId) : undefined;
    return s && s.runId === runId ? s : undefined;
  }

  /** Steps of `runId` that the run has moved past: their turns must stop. */
  stale(runId: string, currentStepId: string | undefined): string[] {
    return [...this.steps].filter(([id, s]) => s.runId === runId && id !== currentStepId).map(([id]) => id);
  }

  /** asks a watching step to read its pull request now; null when the step is not watching here */
  checkNow(stepId: string): { cycleRunning: boolean; read: Promise<void> } | null {
    return this.steps.get(stepId)?.checkNow?.() ?? null;
  }

  /** `sleep`: the engine's clock sleeping until the wait's end (tests move that clock by hand) */
  arm(stepId: string, sleep: (signal: AbortSignal) => Promise<void>, fire: () => void): void {
    const abort = new AbortController();
    this.waits.set(stepId, abort);
    void sleep(abort.signal).then(() => {
      if (abort.signal.aborted) return;
      this.waits.delete(stepId);
      fire();
    });
  }

  isArmed(stepId: string): boolean {
    return this.waits.has(stepId);
  }

  stopAll(): void {
    for (const s of this.steps.values()) s.abort.abort();
    for (const w of this.waits.values()) w.abort();
    this.waits.clear();
  }
}
