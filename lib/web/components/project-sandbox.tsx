import { useState } from 'preact/hooks';
import type { ProjectView } from './shapes.js';

// A project's sandbox (docs/sandbox.md): whether its runs need svc's sandbox, and the hosts its
// sandboxed steps may reach besides their model API. Each form is one PATCH through the card's
// `patch`, so a refusal (a host pattern the server does not take) shows with the card's others.

type Patch = (what: string, body: Record<string, unknown>) => Promise<unknown>;

const lines = (text: FormDataEntryValue | null): string[] => String(text ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '');

export const ProjectSandbox = ({ project: p, patch, busy }: { readonly project: ProjectView; readonly patch: Patch; readonly busy: boolean }) => {
  const key = `p-${p.id}`;
  const [mode, setMode] = useState(p.sandbox ?? 'preferred');
  return (
    <>
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); void patch(`Sandbox: ${mode}.`, { sandbox: mode }); }}>
        <label for={`${key}-sandbox`}>Sandbox</label>
        <select id={`${key}-sandbox`} name="sandbox" value={mode} aria-describedby={`${key}-sandbox-why`}
          onChange={(e) => setMode(e.currentTarget.value as typeof mode)}>
          <option value="required">required</option>
          <option value="preferred">preferred</option>
          <option value="off">off</option>
        </select>
        <button type="submit" disabled={busy}>Set sandbox</button>
        <span id={`${key}-sandbox-why`} class="muted">where it cannot start, required refuses the run and preferred runs it unsandboxed, marked</span>
      </form>
      <form aria-label={`Network allowlist of ${p.name}`} onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        void patch('Allowlist saved.', { egressAllow: lines(form.get('allow')), egressAllowFull: lines(form.get('full')) });
      }}>
        <div class="two">
          <div class="field">
            <label for={`${key}-egress`}>Hosts sandboxed steps may reach</label>
            <textarea id={`${key}-egress`} name="allow" rows={3} defaultValue={(p.egressAllow ?? []).join('\n')}
              aria-describedby={`${key}-egress-why`} placeholder="registry.npmjs.org" />
          </div>
          <div class="field">
            <label for={`${key}-egress-full`}>More hosts for full-tools steps</label>
            <textarea id={`${key}-egress-full`} name="full" rows={3} defaultValue={(p.egressAllowFull ?? []).join('\n')}
              aria-describedby={`${key}-egress-why`} placeholder="*" />
          </div>
        </div>
        <p id={`${key}-egress-why`} class="muted">One a line: host, host:port or *.domain; * (anything) only for full-tools steps. The model's API and the run's own tools are always reachable.</p>
        <button type="submit" disabled={busy}>Save allowlist</button>
      </form>
    </>
  );
};
