import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import type { ProjectView, WorkflowListItem } from './shapes.js';
import type { TriggerRule, TriggerSource } from './trigger-shapes.js';
import { useLoad } from './use-load.js';
import { useSave } from './use-save.js';

// A new trigger rule: name, project, workflow (with its inputs, as templates), the source and its
// fields, goal and title templates. The server checks it all (cron, zone, folder, workflow and
// inputs) and its refusal is shown as it is.

const enc = encodeURIComponent;
const KINDS = ['Schedule', 'Webhook', 'Files', 'CodeHost'] as const;
type Kind = (typeof KINDS)[number];

const text = (f: FormData, k: string) => String(f.get(k) ?? '').trim();

const sourceOf = (kind: Kind, f: FormData): TriggerSource => {
  switch (kind) {
    case 'Schedule': return { _tag: 'Schedule', cron: text(f, 'cron'), timeZone: text(f, 'timeZone') };
    case 'Webhook': return { _tag: 'Webhook' };
    case 'Files': return { _tag: 'Files', folder: text(f, 'folder'), glob: text(f, 'glob') };
    case 'CodeHost': return {
      _tag: 'CodeHost', repository: text(f, 'repository'),
      ...(text(f, 'label') ? { label: text(f, 'label') } : {}), ...(text(f, 'command') ? { command: text(f, 'command') } : {}),
    };
  }
};

const F = ({ id, label, children }: { readonly id: string; readonly label: string; readonly children: preact.ComponentChildren }) => (
  <div class="field"><label for={id}>{label}</label>{children}</div>
);

export const TriggerForm = ({ projects, onCreated }: { readonly projects: readonly ProjectView[]; readonly onCreated: (r: TriggerRule) => void }) => {
  const [project, setProject] = useState(projects[0]?.id ?? '');
  const [kind, setKind] = useState<Kind>('Schedule');
  const [workflow, setWorkflow] = useState('');
  const workflows = useLoad(project ? () => api<{ workflows: WorkflowListItem[] }>(`workflows?project=${enc(project)}`) : null, [project]);
  const wf = workflows.data?.workflows.find((w) => w.name === workflow) ?? workflows.data?.workflows.find((w) => w.standing === 'default' && !workflow);
  const save = useSave();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const inputs = Object.fromEntries((wf?.inputs ?? []).map((i) => [i, text(f, `input-${i}`)]).filter(([, v]) => v !== ''));
    const body = {
      name: text(f, 'name'), project, source: sourceOf(kind, f), goal: String(f.get('goal') ?? ''),
      ...(workflow ? { workflow } : {}), ...(text(f, 'title') ? { title: text(f, 'title') } : {}),
      ...(Object.keys(inputs).length ? { inputs } : {}),
    };
    if (await save.run(async () => onCreated(await api<TriggerRule>('triggers', { body })), '')) form.reset();
  };

  return (
    <form class="panel stack" onSubmit={submit} aria-labelledby="new-rule-h">
      <h2 id="new-rule-h" class="card-title">New rule</h2>
      <F id="tr-name" label="Rule name"><input id="tr-name" name="name" required maxLength={80} /></F>
      <div class="two">
        <F id="tr-project" label="Project">
          <select id="tr-project" value={project} onChange={(e) => { setProject(e.currentTarget.value); setWorkflow(''); }}>
            {projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </select>
        </F>
        <F id="tr-workflow" label="Workflow">
          <select id="tr-workflow" value={workflow} onChange={(e) => setWorkflow(e.currentTarget.value)}>
            <option value="">The project's default</option>
            {(workflows.data?.workflows ?? []).map((w) => <option key={w.name} value={w.name}>{w.name}</option>)}
          </select>
        </F>
      </div>
      <F id="tr-kind" label="Source">
        <select id="tr-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
          <option value="Schedule">Schedule (cron)</option>
          <option value="Webhook">Webhook (scripts, CI)</option>
          <option value="Files">Files written into a folder</option>
          <option value="CodeHost">Code host (issue label, pull request command)</option>
        </select>
      </F>
      {kind === 'Schedule' && (
        <div class="two">
          <F id="tr-cron" label="Cron expression"><input id="tr-cron" name="cron" required placeholder="0 9 * * 1-5" /></F>
          <F id="tr-zone" label="Time zone"><input id="tr-zone" name="timeZone" required defaultValue={zone} /></F>
        </div>
      )}
      {kind === 'Files' && (
        <div class="two">
          <F id="tr-folder" label="Folder (full path)"><input id="tr-folder" name="folder" required /></F>
          <F id="tr-glob" label="Files matching"><input id="tr-glob" name="glob" required defaultValue="**/*" /></F>
        </div>
      )}
      {kind === 'CodeHost' && (
        <>
          <F id="tr-repo" label="Repository (owner/name)"><input id="tr-repo" name="repository" required /></F>
          <div class="two">
            <F id="tr-label" label="Issue label"><input id="tr-label" name="label" placeholder="svc" /></F>
            <F id="tr-command" label="Pull request command"><input id="tr-command" name="command" placeholder="/svc" /></F>
          </div>
        </>
      )}
      {kind === 'Webhook' && <p class="muted about">The secret to deliver with is shown once, when the rule is created.</p>}
      <F id="tr-goal" label="Goal (template)">
        <textarea id="tr-goal" name="goal" rows={3} required placeholder="Work on {{event.summary}}" aria-describedby="tr-goal-hint" />
      </F>
      <p id="tr-goal-hint" class="muted about">{'{{event.summary}}'}, {'{{event.url}}'} and the source's own fields are filled in from the event, as text.</p>
      <F id="tr-title" label="Title (template, optional)"><input id="tr-title" name="title" /></F>
      {wf && wf.inputs.length > 0 && (
        <fieldset>
          <legend>Inputs of {wf.name} (templates)</legend>
          {wf.inputs.map((i) => <F key={i} id={`tr-in-${i}`} label={i}><input id={`tr-in-${i}`} name={`input-${i}`} defaultValue={wf.defaults[i] ?? ''} /></F>)}
        </fieldset>
      )}
      <ErrorNote error={save.error} />
      <button type="submit" disabled={save.busy || !project}>Create rule</button>
    </form>
  );
};
