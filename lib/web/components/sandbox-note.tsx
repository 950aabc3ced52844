import { api } from '../api.js';
import { useLoad } from './use-load.js';

// Before a run is started: whether its steps will run in svc's sandbox (docs/sandbox.md), and why
// not. The server answers with the rule a start meets (GET /api/harnesses/needed): a project that
// requires the sandbox where it cannot start is refused, and the form says so first.

interface SandboxStatus {
  readonly mode: 'required' | 'preferred' | 'off';
  readonly sandboxed: boolean;
  readonly reason: string | null;
  readonly refusal: string | null;
}

const enc = encodeURIComponent;

export const SandboxNote = ({ project, workflow }: { project: string; workflow: string }) => {
  const query = `project=${enc(project)}&workflow=${enc(workflow)}`;
  const needs = useLoad(project && workflow ? () => api<{ sandbox?: SandboxStatus }>(`harnesses/needed?${query}`) : null, [query]);
  const s = needs.data?.sandbox;
  if (!s) return null;
  if (s.sandboxed) return <p class="muted" id="nr-sandbox" data-sandbox="on">Runs here are sandboxed: the agent reaches its run's folder and the allowed hosts, nothing else of this machine.</p>;
  if (s.refusal) return <p class="warning" id="nr-sandbox" role="status" data-sandbox="refused">{s.refusal}</p>;
  return <p class="warning" id="nr-sandbox" role="status" data-sandbox="off">Runs here are not sandboxed ({s.reason}): the agent can reach whatever you can.</p>;
};
