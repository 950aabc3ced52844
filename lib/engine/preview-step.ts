import { decideFinishStep, decideStartStep } from '../../commands/engine-steps.js';
import type { RunState } from '../../projections/run-state.js';
import type { StepNode } from '../../domain/workflow.js';
import type { EngineContext } from './context.js';

// A `kind=preview` step (docs/workflows.md): starts the run's preview and succeeds once its port
// answers, so the steps after it can test against {{preview.url}}. The preview is the run's own
// from then on and is stopped when the run ends (lib/preview/manager.ts).

export const runPreviewStep = (ctx: EngineContext, run: RunState, node: StepNode): void => {
  const stepId = ctx.deps.newId('s');
  if (!ctx.apply(run.runId, (s) => decideStartStep(s, { stepId, node: node.id, kind: node.kind, attempt: s.stepCount + 1 }))) return;
  let done = false;
  const finish = (outcome: 'success' | 'failure' | 'interrupted', summary: string) => {
    if (done) return;
    done = true;
    ctx.live.remove(stepId);
    ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome, summary }));
  };
  const port = ctx.deps.preview;
  if (!port) return void ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary: 'previews are not available in this engine' }));
  const abort = new AbortController();
  ctx.live.add(stepId, { runId: run.runId, abort, send: () => false });
  abort.signal.addEventListener('abort', () => finish('interrupted', 'preview step stopped'), { once: true });
  ctx.log(run.runId, `preview ${node.id}: starting the run's preview`);
  void ctx.track(port.start(run.runId).then(
    (r) => (abort.signal.aborted ? undefined : r.ok ? finish('success', `preview answering at ${r.url}`) : finish('failure', `preview did not start: ${r.detail}`)),
    (err: unknown) => finish('failure', `preview did not start: ${err instanceof Error ? err.message : String(err)}`),
  ));
};
