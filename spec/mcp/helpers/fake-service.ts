import { EventEmitter } from 'node:events';
import { left, right } from 'fp-ts/lib/Either.js';
import { ended, invalid, notAllowed, notFound, type Outcome } from '../../../commands/refusal.js';
import type { Actor, ControlInput, RunDetail, ServiceApi, Standing, StartRunInput, WaitChange } from '../../../lib/service-api.js';

// An in-memory ServiceApi for endpoint tests until lib/service.ts is the real thing: enough
// behaviour to tell a tool's wiring apart (refusals, Stale, waiting), no engine.

const ENDED: readonly Standing[] = ['Succeeded', 'Failed', 'Aborted'];

export interface Call { readonly method: string; readonly args: readonly unknown[]; readonly by?: Actor }

const detail = (id: string, standing: Standing, seq: number): RunDetail => ({
  id, title: `run ${id}`, workflow: 'default', project: 'Demo', projectId: 'p1', standing, phase: 'Executing',
  currentStep: 'code', pullRequest: null, pullRequests: [], goal: 'do it', archived: false, resolved: false,
  currentStepToolClasses: [], currentStepSettings: null,
  allowedActions: ENDED.includes(standing) ? ['Restart'] : ['Pause', 'Abort', 'ChangeHarness', 'Jump'],
  ...(standing === 'Question' ? { question: { id: 'q1', prompt: 'which?', options: ['a', 'b'], allowText: true } } : {}),
  position: `p${seq}`,
});

export class FakeService implements ServiceApi {
  readonly calls: Call[] = [];
  private readonly runs = new Map<string, RunDetail>();
  private readonly changes = new EventEmitter();
  private seq = 0;

  constructor() {
    this.changes.setMaxListeners(0);
  }

  put(id: string, standing: Standing): RunDetail {
    const run = detail(id, standing, ++this.seq);
    this.runs.set(id, run);
    this.changes.emit(id, run);
    return run;
  }

  private find(id: string): Outcome<RunDetail> {
    const run = this.runs.get(id);
    return run ? right(run) : left(notFound('run', id));
  }

  private record(method: string, args: readonly unknown[], by?: Actor): void {
    this.calls.push({ method, args, by });
  }

  health() { return { version: '0.1.0', available: { _tag: 'UpToDate', running: '0.1.0' }, projects: 1, runs: this.runs.size }; }
  listRuns(filter?: { standing?: string; project?: string }) {
    this.record('listRuns', [filter]);
    return [...this.runs.values()].filter((r) => !filter?.standing || r.standing === filter.standing);
  }
  listHttpRuns() { return []; }
  getRun(runId: string) { return this.find(runId); }
  getHttpRun(runId: string) { return left(notFound('run', runId)); }
  listProjects() {
    return [{ id: 'p1', name: 'Demo', folders: [{ name: 'app', path: '/tmp/app' }], primaryFolder: 'app', defaultWorkflow: 'default' }];
  }
  startRun(input: StartRunInput, by: Actor) {
    this.record('startRun', [input], by);
    if (input.project !== 'p1') return left(notFound('project', input.project));
    return right({ runId: this.put(`r${this.seq + 1}`, 'Queued').id });
  }
  control(runId: string, input: ControlInput, by: Actor) {
    this.record('control', [runId, input], by);
    const found = this.find(runId);
    if (found._tag === 'Left') return found;
    const run = found.right;
    if (input.position !== run.position) return right({ outcome: 'Stale' as const, run });
    if (!run.allowedActions.includes(input.action)) return left(notAllowed(input.action, run.allowedActions));
    return right({ outcome: 'Applied' as const, run: this.put(runId, input.action === 'Pause' ? 'Paused' : run.standing) });
  }
  reviseGoal(runId: string, goal: string, reason: string | undefined, by: Actor) {
    this.record('reviseGoal', [runId, goal, reason], by);
    const found = this.find(runId);
    if (found._tag === 'Left') return found;
    if (ENDED.includes(found.right.standing)) return left(ended('the run has ended; its goal cannot be revised'));
    return right({ run: { ...found.right, goal }, goal });
  }
  message(runId: string, text: string, delivery: 'Resume' | 'Hold', reason: string | undefined, by: Actor) {
    this.record('message', [runId, text, delivery, reason], by);
    const found = this.find(runId);
    if (found._tag === 'Left') return found;
    const taken = !ENDED.includes(found.right.standing);
    return right({ run: found.right, delivered: taken, detail: taken ? null : 'the run has ended' });
  }
  answer(runId: string, questionId: string, answer: string | readonly string[], reason: string | undefined, by: Actor) {
    this.record('answer', [runId, questionId, answer, reason], by);
    const found = this.find(runId);
    if (found._tag === 'Left') return found;
    const q = found.right.question;
    if (!q || q.id !== questionId) return left(invalid(`no open question ${questionId}`));
    if (typeof answer === 'string' && !q.allowText) return left(invalid('this question takes option labels, not written text'));
    if (typeof answer !== 'string' && answer.some((a) => !q.options.includes(a))) return left(invalid('not an option'));
    return right({ run: found.right, question: questionId, delivered: true, detail: null });
  }
  archive(runId: string, state: 'Archived' | 'Active', reason: string | undefined, by: Actor) {
    this.record('archive', [runId, state, reason], by);
    const found = this.find(runId);
    if (found._tag === 'Left') return found;
    if (!ENDED.includes(found.right.standing)) return left(invalid('the run is still going; it cannot be archived'));
    return right({ run: found.right, state });
  }
  resolve(runId: string, reason: string | undefined, by: Actor) {
    this.record('resolve', [runId, reason], by);
    const found = this.find(runId);
    if (found._tag === 'Left') return found;
    if (!ENDED.includes(found.right.standing)) return left(invalid('the run has not ended; only an ended run can be resolved'));
    return right({ run: found.right });
  }
  readThread(runId: string, before: string | undefined, pageSize: number) {
    this.record('readThread', [runId, before, pageSize]);
    return this.runs.has(runId) ? right({ rows: [], before: null }) : left(notFound('run', runId));
  }
  readHistory(runId: string, before: number | undefined, pageSize: number) {
    this.record('readHistory', [runId, before, pageSize]);
    return this.runs.has(runId) ? right({ events: [], before: null }) : left(notFound('run', runId));
  }
  readLog(runId: string, before: number | undefined, pageSize: number) {
    this.record('readLog', [runId, before, pageSize]);
    return this.runs.has(runId) ? right({ lines: [], before: null }) : left(notFound('run', runId));
  }
  async exportRun(runId: string) {
    return this.runs.has(runId) ? right({ path: `/tmp/exports/${runId}.json`, size: 2 }) : left(notFound('run', runId));
  }
  runUrl(runId: string) { return `http://127.0.0.1:1/runs/${runId}`; }
  waitForRun(runId: string, timeoutMs: number, signal?: AbortSignal): Promise<Outcome<{ run: RunDetail; changed: WaitChange }>> {
    this.record('waitForRun', [runId, timeoutMs]);
    const found = this.find(runId);
    if (found._tag === 'Left') return Promise.resolve(found);
    if (ENDED.includes(found.right.standing)) return Promise.resolve(right({ run: found.right, changed: 'AlreadyEnded' as const }));
    return new Promise((resolve) => {
      const done = (run: RunDetail, changed: WaitChange) => {
        clearTimeout(timer);
        this.changes.off(runId, onChange);
        signal?.removeEventListener('abort', onAbort);
        resolve(right({ run, changed }));
      };
      const onChange = (run: RunDetail) => done(run, ENDED.includes(run.standing) ? 'Ended' : run.standing === 'Question' ? 'Question' : 'Standing');
      const onAbort = () => done(found.right, 'Nothing');
      const timer = setTimeout(() => done(this.runs.get(runId)!, 'Nothing'), timeoutMs);
      this.changes.on(runId, onChange);
      signal?.addEventListener('abort', onAbort);
    });
  }
  listWorkflows(project: string) {
    this.record('listWorkflows', [project]);
    return project === 'p1' ? right({ workflows: [] }) : left(notFound('project', project));
  }
  readWorkflow(project: string, workflow: string) {
    this.record('readWorkflow', [project, workflow]);
    return workflow === 'default' ? right({ name: workflow, origin: 'shipped', version: 'v1', source: 'digraph {}', steps: [] }) : left(notFound('workflow', workflow));
  }
  validateWorkflow(project: string, workflow: string) {
    this.record('validateWorkflow', [project, workflow]);
    return right({ workflow, origin: 'shipped', loads: true, errors: [], warnings: [] });
  }
  async readRunWorktree(runId: string) {
    this.record('readRunWorktree', [runId]);
    const found = this.find(runId);
    return found._tag === 'Left' ? found : right({ run: found.right, folders: [] });
  }
  async secureRunWork(runId: string, reason: string | undefined, by: Actor) {
    this.record('secureRunWork', [runId, reason], by);
    const found = this.find(runId);
    return found._tag === 'Left' ? found : right({ run: found.right, folders: [] });
  }
  // the real service's addressing rules, so the tool's errors can be checked here too
  async readPullRequest(a: { run?: string; project?: string; number?: number }) {
    this.record('readPullRequest', [a]);
    if (!a.run && !a.project) return left(invalid('name a run, or a project with a number'));
    if (a.project && !a.run && a.number === undefined) return left(invalid('a project needs a pull request number'));
    return right({ pullRequest: { repository: 'o/r', number: a.number ?? 1, title: 'PR', state: 'OPEN' } });
  }
  waiters(runId: string): number { return this.changes.listenerCount(runId); }
}
