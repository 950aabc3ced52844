import { isLeft, right } from 'fp-ts/lib/Either.js';
import { ensureToken } from '../auth/mcp-token.js';
import type { Stored } from '../../journal/journal.js';
import { SupervisorAgents, type AgentDeps } from '../supervisors/agent/agents.js';
import { supervisorHarnesses } from '../supervisors/agent/harnesses.js';
import { supervisorEndpointUrl } from '../supervisors/agent/turn.js';
import { supervisorsPort } from '../supervisors/port.js';
import { type ServiceCore } from '../service/core.js';
import { projectOf } from '../read-models/run-detail.js';
import { PullRequestChecksWatch, type ChecksWatchDeps } from '../engine/pr-checks-watch.js';
import { runStream } from '../state/run-stream.js';
import { decodeAppend } from '../../journal/typed-subscribe.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../journal/run-events.js';

// The live supervisors in the real server: the agent loop (lib/supervisors/agent) over the real
// supervisor records (lib/supervisors/port.ts), running only while the Supervisors setting is on. Its turns reach the server's own
// tool endpoint at <baseUrl>/mcp?supervisor=<key> with the endpoint's bearer token. A person may
// write in a chat while the feature is off: the message is kept, and the chat says why it waits;
// switching the feature on starts the loop, which runs the waiting wakes.

const checksWatchDeps = (core: ServiceCore): ChecksWatchDeps => ({
  settings: () => core.settings.current,
  runs: () => core.runs.all(),
  wantsChecksWake: (run) => {
    // the poll also runs for auto-merge with supervisors off: no wakes are recorded then
    if (!core.settings.current.supervisors.enabled) return false;
    const owner = core.supervisors.ownerOf(run);
    return owner !== null && core.supervisors.get(owner)?.settings.wakeOn.checksFailed === true;
  },
  autoMergeOf: (run) => projectOf(core, run)?.autoMerge ?? null,
  history: (runId) => decodeAppend<RunEvent>(RUN_EVENT_CODECS, core.journal.read(runStream(runId))),
  record: (runId, event) => {
    const r = core.runs.transact(runId, () => right([event]), { at: core.now().toISOString(), onStale: 'refuse' });
    return !isLeft(r) && r.right._tag === 'Appended';
  },
});

const SWITCHED_OFF = 'the supervisor feature was switched off during the turn; it runs again once it is on';

export class SupervisorLoop {
  private agents: SupervisorAgents | null = null;
  /** never started: records a person's message (and why it waits) while the loop is off */
  private readonly recorder: SupervisorAgents;
  /** the source of the checks-failed wake, polled while the loop runs */
  private readonly checks: PullRequestChecksWatch;
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private closed = false;

  constructor(private readonly core: ServiceCore) {
    this.recorder = new SupervisorAgents(this.deps());
    this.checks = new PullRequestChecksWatch(checksWatchDeps(core));
  }

  /** called once the server knows its own URL (the turns' tool endpoint) */
  start(): void {
    if (this.unsubscribe || this.closed) return;
    // listeners run inside the append, before the settings fold has moved: look a tick later
    this.unsubscribe = this.core.journal.subscribe((stream) => void (this.watches(stream) && setImmediate(() => this.sync())));
    this.sync();
  }

  get running(): boolean {
    return this.agents !== null;
  }

  /** a person's message: recorded in the chat, which wakes the supervisor (or waits, saying why) */
  write(id: string, text: string, sender: string | null): Stored | undefined {
    const live = this.agents;
    const entry = (live ?? this.recorder).write(id, text, sender);
    if (!live) this.recorder.sayHeld(id);
    return entry;
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.sync();
    await this.chain;
  }

  // the pull request poll also runs while any project has auto-merge on, supervisors or not
  private watches(stream: string): boolean {
    return stream === this.core.settings.stream || stream === this.core.projects.stream;
  }

  private wantsPoll(): boolean {
    return !this.closed && (this.core.settings.current.supervisors.enabled || [...this.core.projects.current.values()].some((p) => p.autoMerge !== null));
  }

  // Start and stop one after the other: a stop waits for the turn it cuts off to be recorded.
  private sync(): void {
    this.chain = this.chain.then(async () => {
      const on = !this.closed && this.core.settings.current.supervisors.enabled;
      if (on && !this.agents) {
        this.agents = new SupervisorAgents(this.deps());
        this.agents.start();
      } else if (!on && this.agents) {
        const a = this.agents;
        this.agents = null;
        await a.stop(this.closed ? undefined : SWITCHED_OFF);
      }
      if (this.wantsPoll()) this.checks.start();
      else await this.checks.stop();
    }).catch((err: unknown) => console.error('supervisor loop failed to switch', err));
  }

  private deps(): AgentDeps {
    const core = this.core;
    const harnesses = supervisorHarnesses(core.harnesses);
    return {
      journal: core.journal,
      port: supervisorsPort(core.supervisors),
      prices: () => core.settings.current.prices,
      defaultHarness: () => core.settings.current.defaultHarness ?? 'claude',
      newId: core.newId,
      now: () => core.now(),
      turn: {
        home: core.home,
        harness: (name) => harnesses[name],
        // read at each turn: a regenerated token or key is used from the next turn on
        endpoint: (key) => ({ url: supervisorEndpointUrl(core.baseUrl, key), token: ensureToken(core.home) }),
        watchdogMs: () => core.settings.current.watchdogSeconds * 1000,
      },
    };
  }
}
