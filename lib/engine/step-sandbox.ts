import type { RunState } from '../../projections/run-state.js';
import type { SandboxChoice, SandboxOpen, StepSandbox } from '../sandbox/sandbox.js';
import type { SandboxedTool } from '../sandbox/home.js';
import type { EngineContext } from './context.js';

// A step that runs something in the run's folder (an agent turn, a command) runs in svc's sandbox
// when the project and the machine allow (lib/service/sandbox.ts), and its StepStarted says
// whether it did and why not. What the sandbox's egress proxy refuses becomes an activity row of
// the step, so a person sees what the agent tried to reach.

export interface StepSandboxPlan {
  readonly choice: SandboxChoice;
  /** the fields StepStarted records */
  readonly facts: { readonly sandboxed: boolean; readonly unsandboxed?: string };
}

export const planSandbox = (ctx: EngineContext, run: RunState, tool: SandboxedTool): StepSandboxPlan => {
  const choice = ctx.deps.sandbox(run, tool);
  return { choice, facts: choice._tag === 'Sandboxed' ? { sandboxed: true } : { sandboxed: false, unsandboxed: choice.reason } };
};

const refusalRows = (ctx: EngineContext, runId: string, stepId: string, allowed: () => string): SandboxOpen['onRefused'] => {
  let n = 0;
  return (destination, why) => {
    const at = ctx.deps.now().toISOString();
    const callId = `egress-${++n}`;
    const activity = ctx.deps.logs.activity;
    activity.record(runId, stepId, { phase: 'started', callId, tool: 'egress', kind: 'other', title: `network refused: ${destination}` }, at);
    activity.record(runId, stepId, { phase: 'ended', callId, status: 'error', output: `svc's sandbox refused ${destination}: ${why}. ${allowed()}` }, at);
    ctx.log(runId, `sandbox: refused ${destination} (${why})`);
  };
};

/** The step's sandbox, open; undefined when it runs unsandboxed; an Error when it could not be made. */
export const openSandbox = (ctx: EngineContext, run: RunState, stepId: string, plan: StepSandboxPlan, o: Omit<SandboxOpen, 'onRefused'>): StepSandbox | undefined | Error => {
  if (plan.choice._tag !== 'Sandboxed') return undefined;
  const onRefused = refusalRows(ctx, run.runId, stepId, () => 'The project\'s egress allowlist (docs/sandbox.md) says what else it may reach.');
  try {
    return plan.choice.open({ ...o, onRefused });
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
};
