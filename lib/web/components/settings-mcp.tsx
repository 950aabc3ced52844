import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import { CopyButton } from './copy-button.js';
import { changeSetting, SOURCE, TOOL_GROUPS, type McpView, type ToolGroup } from './settings-api.js';
import { useSave } from './use-save.js';

// Settings > MCP: the endpoint address, the token (hidden until asked; copying does not show it),
// Regenerate behind a warning, the endpoint and each tool group on or off, and the lines that
// register svc with each agent CLI (docs/mcp.md). The lines read the token with `svc mcp token`
// when run, so the token itself never lands in a shell history.

/** each group and its tools as the page lists them (held to the registry by spec/mcp/schema.test.ts) */
export const GROUPS: Readonly<Record<ToolGroup, { readonly title: string; readonly tools: string }>> = {
  reading: { title: 'Reading runs and workflows', tools: 'list_runs, get_run, list_projects, list_workers, read_run_thread, read_run_history, read_run_log, export_run, list_workflows, read_workflow, validate_workflow, wait_for_run, read_pull_request, read_pull_request_draft, read_run_worktree, read_usage, get_preview' },
  starting: { title: 'Starting runs', tools: 'start_run, follow_up_run, fork_run' },
  controlling: { title: 'Controlling runs', tools: 'control_run, move_run, revise_goal, secure_run_work, open_pull_request, merge_run, update_run_from_base, check_pull_request_now, start_preview, stop_preview' },
  messaging: { title: 'Messaging and answering runs', tools: 'message_run, answer_question, submit_review' },
  archiving: { title: 'Archiving', tools: 'archive_run, resolve_run, keep_attempt' },
  settings: { title: 'Changing settings', tools: 'change_setting, set_project_preview' },
};

export const registrationLines = (url: string): readonly { readonly cli: string; readonly text: string }[] => [
  { cli: 'Claude Code', text: `claude mcp add --transport http svc ${url} --header "Authorization: Bearer $(svc mcp token)"` },
  { cli: 'Codex', text: `export SVC_MCP_TOKEN="$(svc mcp token)"\ncodex mcp add svc --url ${url} --bearer-token-env-var SVC_MCP_TOKEN` },
  { cli: 'OpenCode', text: `opencode mcp add svc --url ${url} --header "Authorization=Bearer $(svc mcp token)"` },
];

const Token = ({ token, onNew }: { readonly token: string; readonly onNew: (t: string) => void }) => {
  const [shown, setShown] = useState(false);
  const [warning, setWarning] = useState(false);
  const save = useSave();
  const regenerate = () => save.run(async () => {
    const r = await api<{ token: string }>('settings/mcp/token', { method: 'POST', body: {}, headers: { 'svc-setting-source': SOURCE } });
    onNew(r.token);
    setWarning(false);
    setShown(true);
  }, 'A new token is in place; the old one no longer works. Update every registered client.');
  return (
    <div role="group" aria-labelledby="mcp-token-h">
      <h3 id="mcp-token-h">Token</h3>
      <div class="copyline">
        <code id="mcp-token" class="line">{shown ? token : `${'•'.repeat(16)} (hidden)`}</code>
        <button type="button" aria-pressed={shown} onClick={() => setShown(!shown)}>{shown ? 'Hide token' : 'Show token'}</button>
        <CopyButton text={token} what="the token" />
      </div>
      {!warning ? <button type="button" class="danger" onClick={() => setWarning(true)}>Regenerate token…</button> : (
        <div class="panel" role="group" aria-labelledby="mcp-regen-warn">
          <p id="mcp-regen-warn" class="warning">Regenerating replaces the token at once: every agent registered with the old one is refused until it is registered again with the new one.</p>
          <div class="row">
            <button type="button" class="danger" disabled={save.busy} onClick={() => void regenerate()}>Regenerate</button>
            <button type="button" onClick={() => setWarning(false)}>Cancel</button>
          </div>
        </div>
      )}
      <ErrorNote error={save.error} />
      <p class="note" role="status">{save.done}</p>
    </div>
  );
};

// The boxes are uncontrolled so a click shows at once; each is remade (its key) when the stored
// value changes, or when a change was refused, so it never shows what the server did not store.
const Switches = ({ mcp, onChanged }: { readonly mcp: McpView; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  const [epoch, setEpoch] = useState(0);
  const send = (change: Parameters<typeof changeSetting>[0], done: string) => save.run(() => changeSetting(change), done).then((ok) => { if (!ok) setEpoch((n) => n + 1); });
  return (
    <div role="group" aria-labelledby="mcp-switch-h">
      <h3 id="mcp-switch-h">Endpoint and tool groups</h3>
      <label class="check">
        <input type="checkbox" key={`endpoint-${mcp.enabled}-${epoch}`} defaultChecked={mcp.enabled}
          onChange={(e) => { const on = e.currentTarget.checked; void send({ _tag: 'McpEndpoint', enabled: on }, `The endpoint is ${on ? 'on' : 'off'}.`); }} />
        Endpoint on (off: /mcp answers 404)
      </label>
      <fieldset>
        <legend>Tool groups (a tool whose group is off is not listed)</legend>
        {TOOL_GROUPS.map((g) => (
          <label key={g} class="check group">
            <input type="checkbox" key={`${g}-${mcp.groups[g]}-${epoch}`} defaultChecked={mcp.groups[g]} aria-describedby={`mcp-g-${g}`}
              onChange={(e) => { const on = e.currentTarget.checked; void send({ _tag: 'McpToolGroup', group: g, enabled: on }, `${GROUPS[g].title}: ${on ? 'on' : 'off'}.`); }} />
            <span>{GROUPS[g].title} <span id={`mcp-g-${g}`} class="muted">({GROUPS[g].tools})</span></span>
          </label>
        ))}
      </fieldset>
      <ErrorNote error={save.error} />
      <p class="note" role="status">{save.done}</p>
    </div>
  );
};

export const McpSettings = ({ mcp, onChanged, onToken }: { readonly mcp: McpView; readonly onChanged: () => void; readonly onToken: (t: string) => void }) => (
  <>
    <h3 id="mcp-url-h">Endpoint address</h3>
    <div class="copyline">
      <code class="line" id="mcp-url">{mcp.url}</code>
      <CopyButton text={mcp.url} what="the endpoint address" />
    </div>
    <Token token={mcp.token} onNew={onToken} />
    <Switches mcp={mcp} onChanged={onChanged} />
    <h3 id="mcp-reg-h">Register svc with an agent</h3>
    <p class="muted about">Paste a line into a terminal; each reads the token with <code>svc mcp token</code> when it runs.</p>
    <ul class="plain" aria-labelledby="mcp-reg-h">
      {registrationLines(mcp.url).map((l) => (
        <li key={l.cli} data-cli={l.cli}>
          <strong>{l.cli}</strong>
          <div class="copyline">
            <pre class="line">{l.text}</pre>
            <CopyButton text={l.text} what={`the ${l.cli} lines`} />
          </div>
        </li>
      ))}
    </ul>
  </>
);
