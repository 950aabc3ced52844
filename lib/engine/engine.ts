import { runPreviewStep } from './preview-step.js';
import { existsSync } from 'node:fs';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Checkout, Continues } from '../../journal/run-events.js';
import { decideEndRun, decideFinishStep, decideGrantSlot, decideRecordWorktrees, queueHold, type GrantSlot } from '../../commands/engine-steps.js';
import { nextLocalMidnight } from '../../domain/supervisor.js';
import { accept, nothing } from '../../commands/guards.js';
import { undeliverHeld } from '../../commands/undelivered.js';
import { budgetText, decideBudgetPause } from '../../commands/budget.js';
import type { Stored } from '../../journal/journal.js';
import { currentNodeOf } from '../../projections/run-decide-state.js';
import type { RunState } from '../../projections/run-state.js';
import { activeCount, queueOrder } from '../../projections/queue.js';
import { effectiveRunCap } from '../../domain/settings.js';
import { endGroup } from '../harness/process-group.js';
import { resumeAskingStep, runAgentStep, takeUpRemoteStep } from './agent-step.js';
import { decideHoldQueued } from '../../commands/quota.js';
import { quotaHoldOf } from './quota-gate.js';
import { steer } from './steering.js';
import { makeContext, type EngineContext } from './context.js';
import type { EngineDeps } from './deps.js';
import { LiveTurns } from './live-turns.js';
import { nextEffect, type Effect } from './next-effect.js';
import { watchPullRequest } from './pr-loop.js';
import { runCommandStep, runDeliverStep, runGateStep, runWaitStep } from './other-steps.js';
import { dropSnapshots, takeStepSnapshots } from './snapshots.js';
import { folderEffect, moveFolders } from './keep-work.js';
import { decodeAppend, type Recorded, type RecordedRunEvent } from '../../journal/typed-subscribe.js';
import { SETTINGS_EVENT_CODECS, type SettingsEvent } from '../../journal/settings-events.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../journal/run-events.js';

// The process manager: it reacts to appended events, gives queued runs a slot under the cap, and
// carries out each run's next effect, recording every outcome as new events.

const SLOT_EVENTS = new Set(['RunQueued', 'RunStarted', 'RunSucceeded', 'RunFailed', 'RunAborted', 'RunRetried', 'HarnessChanged', 'Jumped', 'RunMovedToFront']);

// A follow-up makes no branch or worktree: it works on those of the run it continues, as they are
// now. They must still be there (an archive removes them).
const continuedCheckouts = (c: Continues): readonly Checkout[] => {
  const gone = c.checkouts.find((k) => !existsSync(k.directory));
  if (gone) throw new Error(`the worktree ${gone.directory} of run ${c.runId} is gone`);
  return c.checkouts;
};

const changesRunCap = (e: Recorded<SettingsEvent>): boolean => e.type === 'SettingChanged' && e.data.change._tag === 'RunCap';

export class Engine {
  private readonly ctx: EngineContext;
  private readonly pending = new Set<string>();
  /** runs whose step end is being snapshotted */
  private readonly snapshotting = new Set<string>();
  /** runs whose worktrees are being kept, removed or restored (lib/engine/keep-work.ts) */
  private readonly folders = new Set<string>();
  /** steps whose leftover processes are being ended before they are recorded as interrupted */
  private readonly recovering = new Set<string>();
  private readonly work = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;
  private queueWake: AbortController | null = null;
  /** set while a project's daily budget holds queued runs: the schedule is asked again at the next local midnight */
  private midnight: NodeJS.Timeout | null = null;
  private stopped = false;

  /** `live`: what this process has in flight, shared with the facade (an answer asks whether the asker still waits) */
  constructor(private readonly deps: EngineDeps, readonly live: LiveTurns = new LiveTurns()) {
    this.ctx = makeContext(deps, this.live, () => this.stopped, this.work);
  }

  start(): void {
    this.unsubscribe = this.deps.journal.subscribe((stream, events) => this.onAppended(stream, events));
    for (const r of this.deps.runs.all()) this.kick(r.runId);
    this.schedule();
  }

  /** Stops every turn and waits (a bounded time) for side effects in flight to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queueWake?.abort();
    this.unsubscribe?.();
    if (this.midnight) clearTimeout(this.midnight);
    this.live.stopAll();
    const settled = Promise.allSettled([...this.work]);
    await Promise.race([settled, new Promise((r) => setTimeout(r, 10_000).unref())]);
  }

  /**
   * Re-read the cap (settings changed) and offer slots in queue order; decideGrantSlot says when
   * they are gone. A run whose harness is out of quota is passed over (runs behind it may start)
   * and the queue looks again when the earliest such window ends.
   */
  schedule(): void {
    if (this.stopped) return;
    const cap = effectiveRunCap(this.deps.settings());
    let held = activeCount(this.deps.runs.all());
    let budgetHeld = false;
    const windows: string[] = [];
    for (const r of queueOrder([...this.deps.runs.all()])) {
      const slot = { held, cap, project: this.projectDay(r.projectId) };
      // a run its project's daily budget holds waits; the runs behind it may go
      if (queueHold(slot)) { budgetHeld = true; continue; }
      // so does a run whose harness is out of quota (with no fallback ready): it says why, once
      const quotaHold = quotaHoldOf(this.deps, r);
      const grant = (s: RunState) => decideGrantSlot(s, { ...slot, ...(quotaHold ? { quotaHold } : {}) });
      if (isLeft(grant(r)) && !quotaHold) break; // every slot is held: the rest of the queue waits
      if (quotaHold) {
        this.ctx.apply(r.runId, (s) => decideHoldQueued(s, quotaHold));
        if (quotaHold.until) windows.push(quotaHold.until);
        continue;
      }
      if (this.ctx.apply(r.runId, grant)) held++;
    }
    if (budgetHeld) this.wakeAtMidnight();
    this.wakeAt(windows.sort()[0]);
  }

  // one timer for the queue: at the earliest window end of a held run, schedule again
  private wakeAt(until: string | undefined): void {
    this.queueWake?.abort();
    this.queueWake = null;
    if (!until || this.stopped) return;
    const wake = (this.queueWake = new AbortController());
    void this.deps.sleepUntil(new Date(until), wake.signal).then(() => (wake.signal.aborted ? undefined : this.schedule()));
  }

  private projectDay(projectId: string): GrantSlot['project'] {
    const budget = this.deps.project(projectId)?.dailyBudgetUsd;
    return budget === undefined ? undefined : { dailyBudgetUsd: budget, spentTodayUsd: this.deps.spentToday(projectId) };
  }

  // a new local day starts every project's daily spend afresh: offer the held runs their slots again
  private wakeAtMidnight(): void {
    if (this.midnight) return;
    const ms = Date.parse(nextLocalMidnight(this.deps.now())) - this.deps.now().getTime() + 1000;
    this.midnight = setTimeout(() => { this.midnight = null; this.schedule(); }, Math.max(1000, ms));
    this.midnight.unref();
  }

  private onAppended(stream: string, events: readonly Stored[]): void {
    // A new cap is read once the settings stream has folded its change (after the append returns).
    if (stream === 'settings' && decodeAppend<SettingsEvent>(SETTINGS_EVENT_CODECS, events).some(changesRunCap)) queueMicrotask(() => this.schedule());
    // a harness's window ended early (a turn on it went through): the runs it held may start
    if (stream === 'harnesses' && events.some((e) => e.type === 'HarnessWindowEnded')) queueMicrotask(() => this.schedule());
    // a project's daily budget raised or removed may release its queued runs
    if (stream === 'projects' && events.some((e) => e.type === 'DailyBudgetSet')) queueMicrotask(() => this.schedule());
    if (!stream.startsWith('run:')) return;
    const runId = stream.slice(4);
    const s = this.deps.runs.get(runId);
    if (!s) return;
    for (const stepId of this.live.stale(runId, s.step?.stepId)) this.live.get(stepId)?.abort.abort();
    for (const e of decodeAppend<RunEvent>(RUN_EVENT_CODECS, events)) this.react(s, e);
    if (events.some((e) => SLOT_EVENTS.has(e.type))) queueMicrotask(() => this.schedule());
    this.kick(runId);
  }

  private react(s: RunState, e: RecordedRunEvent): void {
    steer(this.ctx, s, e);
    // A turn waiting on a person prints nothing; its watchdog must not take that for a hang.
    if (e.type === 'QuestionAsked') this.live.forRun(s.runId, s.step?.stepId)?.hold?.(true);
    if (e.type === 'QuestionAnswered' || e.type === 'QuestionWithdrawn') this.live.forRun(s.runId, s.step?.stepId)?.hold?.(false);
    if (e.type === 'RunArchived' && s.stepEnds?.some((x) => x.snapshots.length > 0)) void this.ctx.track(dropSnapshots(this.ctx, s));
  }

  // A step in flight when the service stopped: its CLI may still be running (no lifeline if the
  // wrapper itself was killed, or a server from before the lifeline). End that group first, so
  // two agents never work the same step in the same worktree, then record the interruption.
  private async recover(s: RunState, stepId: string): Promise<void> {
    this.recovering.add(stepId);
    try {
      const leader = s.step?.stepId === stepId ? s.step.process : undefined;
      const ended = leader ? await endGroup(leader) : { processes: 0, gone: true };
      if (ended.processes > 0) {
        this.ctx.log(s.runId, `ended ${ended.processes} leftover agent process(es) of step ${s.step?.node} (process group ${leader!.pid})${ended.gone ? '' : '; some would not die'}`);
        this.ctx.apply(s.runId, (r) => (r.step?.stepId === stepId ? accept({ type: 'StepProcessKilled', data: { stepId, pid: leader!.pid, processes: ended.processes } }) : nothing()));
      }
      if (!ended.gone) return; // never run the step again beside a process that still lives
      const node = currentNodeOf(s);
      // a turn on a worker outlives the service: the hub takes it up where it runs
      if (node?.kind === 'agent' && takeUpRemoteStep(this.ctx, this.deps.runs.get(s.runId) ?? s, node)) return;
      // a question outlives the turn that asked it: the step waits for the answer, then resumes its session
      if (node?.kind === 'agent' && resumeAskingStep(this.ctx, this.deps.runs.get(s.runId) ?? s, node)) return;
      this.ctx.log(s.runId, `step ${s.step?.node} was in flight when the service stopped; running it again`);
      this.deps.logs.activity.endStep(s.runId, stepId, 'the service stopped while this call was running', this.deps.now().toISOString(), true);
      this.ctx.apply(s.runId, (r) => decideFinishStep(r, { stepId, outcome: 'interrupted', summary: 'the service stopped while this step was running' }));
    } finally {
      this.recovering.delete(stepId);
    }
  }

  // one folder move of a run at a time; the next is read off the state it recorded
  private moveFolders(s: RunState): boolean {
    const effect = folderEffect(s);
    if (!effect) return false;
    if (this.folders.has(s.runId)) return true;
    this.folders.add(s.runId);
    void this.ctx.track(moveFolders(this.ctx, s, effect).finally(() => {
      this.folders.delete(s.runId);
      // a failure is not tried again at once: the next append or restart does
      if (folderEffect(this.deps.runs.get(s.runId) ?? s) !== effect) this.kick(s.runId);
    }));
    return true;
  }

  private async snapshot(s: RunState, due: { stepId: string; node: string; at: number }): Promise<void> {
    this.snapshotting.add(s.runId);
    try {
      await takeStepSnapshots(this.ctx, s, due);
    } finally {
      this.snapshotting.delete(s.runId);
      this.kick(s.runId);
    }
  }

  /** Drive a run once the current burst of appends is over. */
  kick(runId: string): void {
    if (this.pending.has(runId) || this.stopped) return;
    this.pending.add(runId);
    queueMicrotask(() => {
      this.pending.delete(runId);
      const s = this.deps.runs.get(runId);
      if (!s || this.stopped || this.moveFolders(s)) return;
      try {
        this.perform(s, nextEffect(s, { preparing: this.live.preparing.has(runId), snapshotting: this.snapshotting.has(runId), isLive: (id) => this.live.isLive(id) || this.recovering.has(id), isArmed: (id) => this.live.isArmed(id) }));
      } catch (err) {
        // thrown in a microtask it would end the server, and every other run with it
        console.error(`svc: driving run ${runId} failed`, err);
        this.ctx.log(runId, `the service could not take the run's next step: ${String(err)}`);
      }
    });
  }

  private perform(s: RunState, effect: Effect): void {
    switch (effect._tag) {
      case 'None': return;
      case 'Prepare': return void this.ctx.track(this.prepare(s));
      case 'Snapshot': return void this.ctx.track(this.snapshot(s, effect));
      case 'Recover': return void this.ctx.track(this.recover(s, effect.stepId));
      case 'ArmWait':
        this.live.arm(effect.stepId, (signal) => this.deps.sleepUntil(new Date(effect.endsAt), signal), () =>
          this.ctx.apply(s.runId, (r) => decideFinishStep(r, { stepId: effect.stepId, outcome: 'success', summary: 'wait ended' })));
        return;
      case 'Watch': return watchPullRequest(this.ctx, s, effect.stepId);
      case 'End':
        if (this.ctx.apply(s.runId, (r) => decideEndRun(r, { success: effect.success, text: effect.text }))) this.ctx.log(s.runId, `run ${effect.success ? 'succeeded' : 'failed'}: ${effect.text}`);
        return;
      case 'Start': return this.startStep(s, effect.node);
      case 'BudgetPause':
        if (this.ctx.apply(s.runId, decideBudgetPause)) this.ctx.log(s.runId, `paused before step ${s.node}: ${budgetText(s)}`);
        return;
    }
  }

  private startStep(s: RunState, node: Extract<Effect, { _tag: 'Start' }>['node']): void {
    switch (node.kind) {
      case 'agent': return runAgentStep(this.ctx, s, node);
      case 'command': return runCommandStep(this.ctx, s, node);
      case 'deliver': return runDeliverStep(this.ctx, s, node);
      case 'gate': return runGateStep(this.ctx, s, node);
      case 'wait': return runWaitStep(this.ctx, s, node);
      case 'preview': return runPreviewStep(this.ctx, s, node);
      case 'start': case 'exit': return;
    }
  }

  private async prepare(s: RunState): Promise<void> {
    const project = this.deps.project(s.projectId);
    this.live.preparing.add(s.runId);
    try {
      if (!project) throw new Error(`project ${s.projectId} no longer exists`);
      const checkouts = s.continues ? continuedCheckouts(s.continues)
        : s.forkedFrom ? await this.deps.worktrees.createFork(s.runId, project.folders, s.forkedFrom.snapshots)
        : await this.deps.worktrees.create(s.runId, project.folders);
      if (s.forkedFrom) this.deps.probe?.('fork:worktrees-made');
      this.ctx.log(s.runId, `worktrees ready: ${checkouts.map((c) => c.directory).join(', ')}${s.continues ? ` (those of run ${s.continues.runId}, continued)` : ''}`);
      this.ctx.apply(s.runId, (r) => decideRecordWorktrees(r, checkouts));
    } catch (err) {
      const reason = `could not make the run's worktrees: ${err instanceof Error ? err.message : String(err)}`;
      this.ctx.apply(s.runId, (r) => (r.lifecycle === 'active' && !r.checkouts ? accept({ type: 'RunFailed', data: { reason } }, ...undeliverHeld(r, 'the run failed before a turn took it')) : nothing()));
    } finally {
      this.live.preparing.delete(s.runId);
      this.kick(s.runId);
    }
  }
}
