import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { useLoad } from './use-load.js';

// Before a run is started: the agent CLIs its steps would use that are known not to work, with the
// command that fixes each. The server answers with the same rule a start is refused by
// (GET /api/harnesses/needed), so what the form says is what Start would meet.

interface HarnessNeed {
  readonly harness: string;
  readonly state: string;
  readonly detail: string | null;
  readonly fix: string | null;
  readonly blocks: boolean;
}

const STATE: Readonly<Record<string, string>> = { NotInstalled: 'is not installed', NotLoggedIn: 'is not logged in' };

const enc = encodeURIComponent;

/** `install it with \`npm i …\``: the parts in backticks are commands, shown as code */
const withCode = (text: string) => text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));

export const HarnessNeeds = ({ project, workflow, harness }: { project: string; workflow: string; harness: string }) => {
  const query = `project=${enc(project)}&workflow=${enc(workflow)}${harness ? `&harness=${enc(harness)}` : ''}`;
  const needs = useLoad(project && workflow ? () => api<{ harnesses: HarnessNeed[] }>(`harnesses/needed?${query}`) : null, [query]);
  const [checking, setChecking] = useState(false);
  const blocking = needs.data?.harnesses.filter((h) => h.blocks) ?? [];
  if (blocking.length === 0) return null;
  const recheck = async () => {
    setChecking(true);
    try {
      await api('harnesses/check', { method: 'POST', body: {} });
      await needs.reload();
    } finally {
      setChecking(false);
    }
  };
  return (
    <div class="panel" id="nr-harness-needs" role="status" aria-labelledby="nr-needs-title">
      <h2 id="nr-needs-title" class="warning">Not ready to start</h2>
      <ul class="plain">
        {blocking.map((h) => (
          <li key={h.harness} data-harness={h.harness}>
            <strong>{h.harness}</strong> {STATE[h.state] ?? h.state}{h.detail ? ` (${h.detail})` : ''}. {h.fix ? withCode(`To fix it, ${h.fix}.`) : ''}
          </li>
        ))}
      </ul>
      <p class="muted">Start now would be refused. Fix it and check again, choose another harness, or untick Start now to record the run for later.</p>
      <button type="button" onClick={recheck} disabled={checking}>{checking ? 'Checking…' : 'Check again'}</button>
    </div>
  );
};
