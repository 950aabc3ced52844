import { svcHome } from '../paths.js';
import { LIFELINE } from '../harness/process.js';
import type { ActivityReport } from '../harness/activity.js';
import { modelHosts } from '../sandbox/model-hosts.js';
import { bwrapBin, knownProbe } from '../sandbox/probe.js';
import { openStepSandbox, type StepSandbox } from '../sandbox/sandbox.js';
import type { Job } from './remote-messages.js';

// The worker runs a dispatched turn in svc's sandbox when this machine can start it (the probe
// `svc worker join` ran), as the hub would: the run folder writable (read-only steps: not), this
// worker's svc home hidden, egress to the harness's model API, the project's allowlist for the
// step (as the hub sent it) and the run-tools relay.
// What the proxy refuses becomes an activity row, sent to the hub as the turn's other rows are.

export type Sandboxed = { readonly sandbox: StepSandbox } | { readonly why: string };

export const workerSandbox = (job: Job, program: string | undefined, runTools: string, report: (a: ActivityReport) => void): Sandboxed => {
  const probe = knownProbe(bwrapBin());
  if (probe?._tag !== 'Ready') return { why: probe ? probe.reason : 'not checked' };
  let n = 0;
  const onRefused = (destination: string, why: string) => {
    const callId = `egress-${++n}`;
    report({ phase: 'started', callId, tool: 'egress', kind: 'other', title: `network refused: ${destination}` });
    report({ phase: 'ended', callId, status: 'error', output: `svc's sandbox on the worker refused ${destination}: ${why}` });
  };
  try {
    return {
      sandbox: openStepSandbox({
        bwrap: bwrapBin(), tool: job.harness, checkouts: [job.cwd], writable: job.tools !== 'read-only',
        hidden: [svcHome()], env: process.env, programs: [process.execPath, LIFELINE, ...(program ? [program] : [])],
        egress: { allow: [...modelHosts(job.harness, process.env), ...(job.egress ?? [])], runTools }, onRefused,
      }),
    };
  } catch (e) {
    return { why: e instanceof Error ? e.message : String(e) };
  }
};
