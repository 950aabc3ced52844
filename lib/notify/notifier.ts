import type { Either } from 'fp-ts/lib/Either.js';
import { decideRecordNotifyFailure, decideStartNotify } from '../../commands/notify-command.js';
import type { Refusal } from '../../commands/refusal.js';
import type { Journal, Stored } from '../../journal/journal.js';
import type { NotifyEvent } from '../../journal/notify-events.js';
import type { NotifyState } from '../../projections/notify-command.js';
import type { Settings } from '../../domain/settings.js';
import type { SingleStream } from '../state/event-stream.js';
import { type NeedsNotice, type RunNames, needsNoticeOf } from './needs-notice.js';
import { runNotifyCommand } from './run-command.js';
import { argvProblem } from '../../domain/argv.js';

// The notification command's process manager: told of every append, it picks the events that
// make someone needed (lib/notify/needs-notice.ts) and, when Settings has a command for that
// kind, records NotifyCommandStarted (keyed by the event's stream and seq) before running it, so
// no event runs it twice, across restarts too; a failure is recorded and shown in Settings.
// Commands run one after another off the append (never inside it), so a slow or failing command
// never holds up a run.

export interface NotifierDeps {
  readonly journal: Journal;
  readonly record: SingleStream<NotifyState, NotifyEvent>;
  settings(): Settings;
  names(runId: string): RunNames | undefined;
  /** the run's page in the app */
  runUrl(runId: string): string;
  now(): Date;
}

export class Notifier {
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: NotifierDeps) {}

  start(): void {
    this.unsubscribe ??= this.deps.journal.subscribe((stream, events) => this.told(stream, events));
    const why = this.problem();
    if (why) console.error(`svc: the notification command stored in Settings cannot run (${why}); each event it is chosen for records a failure until it is changed in Settings`);
  }

  /** why the command stored in Settings cannot run; null when it can, or when none is set */
  problem(): string | null {
    const command = this.deps.settings().notifyCommand;
    return command ? argvProblem(command.argv) : null;
  }

  /** stops listening and waits for the command running now */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.chain;
  }

  private told(stream: string, events: readonly Stored[]): void {
    const command = this.deps.settings().notifyCommand;
    if (!command) return;
    for (const e of events) {
      const notice = needsNoticeOf(stream, e, (id) => this.deps.names(id));
      // nothing a command does may reject the chain: an unhandled rejection would end the server
      if (notice && command.kinds.includes(notice.kind)) this.chain = this.chain.then(() => this.notify(notice)).catch((err: unknown) => console.error('svc: the notification command failed', err));
    }
  }

  /** true when something was appended */
  private transact(decide: (s: NotifyState) => Either<Refusal, NotifyEvent[]>): boolean {
    const r = this.deps.record.transact(decide, { at: this.deps.now().toISOString(), onStale: 'retry' });
    return r._tag === 'Right' && r.right._tag === 'Appended';
  }

  private async notify(n: NeedsNotice): Promise<void> {
    const command = this.deps.settings().notifyCommand;
    if (!command || this.deps.record.current.started.has(n.key)) return;
    const notice = { key: n.key, kind: n.kind, runId: n.runId };
    if (!this.transact((s) => decideStartNotify(s, notice))) return;
    const url = n.runId ? this.deps.runUrl(n.runId) : '';
    const input = JSON.stringify({ kind: n.kind, runId: n.runId, title: n.title, project: n.project, url, reason: n.reason, at: n.at });
    const env = { SVC_EVENT_KIND: n.kind, SVC_RUN_ID: n.runId ?? '', SVC_RUN_URL: url };
    const result = await runNotifyCommand(command.argv, input, env);
    if (!result.ok) this.transact((s) => decideRecordNotifyFailure(s, { ...notice, detail: result.detail }));
  }
}
