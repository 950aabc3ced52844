import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Link } from '../ui/link.js';
import { ErrorNote } from '../ui/page.js';
import { ProjectSandbox } from './project-sandbox.js';
import type { ProjectView, WorkflowListItem } from './shapes.js';
import { useLoad } from './use-load.js';
import { useSave } from './use-save.js';

// One project on the Projects page: rename it, choose its default workflow, auto-merge, its sandbox
// and network allowlist (project-sandbox.tsx) and its primary folder, add and remove folders. Each change is one PATCH/POST/DELETE; the answer (the project as it now
// is) replaces what is shown, and a refusal's detail is shown next to the project.

const enc = encodeURIComponent;

export const ProjectCard = ({ project, onChange }: { readonly project: ProjectView; readonly onChange: (p: ProjectView) => void }) => {
  const p = project;
  const key = `p-${p.id}`;
  const workflows = useLoad(() => api<{ workflows: WorkflowListItem[] }>(`workflows?project=${enc(p.id)}`), [p.id, p.primaryFolder]);
  const save = useSave();
  const [wf, setWf] = useState(p.defaultWorkflow);
  const [merge, setMerge] = useState(p.autoMerge?.method ?? 'off');

  const act = (what: string, call: () => Promise<ProjectView>, after?: () => void) => save.run(async () => {
    onChange(await call());
    after?.();
  }, what);
  const patch = (what: string, body: Record<string, unknown>) => act(what, () => api<ProjectView>(`projects/${enc(p.id)}`, { method: 'PATCH', body }));
  const value = (form: EventTarget | null, name: string) => String(new FormData(form as HTMLFormElement).get(name) ?? '').trim();

  return (
    <section class="panel" aria-labelledby={`${key}-title`} data-project={p.id}>
      <div class="row">
        <h2 id={`${key}-title`} class="card-title grow">{p.name}</h2>
        <Link href={`/new?project=${enc(p.id)}`} class="button">New run here</Link>
      </div>
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); void patch('Renamed.', { name: value(e.currentTarget, 'name') }); }}>
        <label for={`${key}-name`}>Name</label>
        <input id={`${key}-name`} name="name" defaultValue={p.name} required maxLength={80} />
        <button type="submit" disabled={save.busy}>Rename</button>
      </form>
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); void patch('Default workflow chosen.', { defaultWorkflow: wf }); }}>
        <label for={`${key}-wf`}>Default workflow</label>
        <select id={`${key}-wf`} name="workflow" value={wf} onChange={(e) => setWf(e.currentTarget.value)}>
          {(workflows.data?.workflows ?? [{ name: p.defaultWorkflow } as WorkflowListItem]).map((w) => <option key={w.name} value={w.name}>{w.name}</option>)}
        </select>
        <button type="submit" disabled={save.busy || !workflows.data}>Set default</button>
      </form>
      <form class="inline-form" onSubmit={(e) => {
        e.preventDefault();
        void patch(merge === 'off' ? 'Auto-merge is off.' : `Auto-merge by ${merge}.`, { autoMerge: merge === 'off' ? null : { method: merge } });
      }}>
        <label for={`${key}-merge`}>Auto-merge pull requests</label>
        <select id={`${key}-merge`} name="autoMerge" value={merge} onChange={(e) => setMerge(e.currentTarget.value)}
          aria-describedby={`${key}-merge-why`}>
          <option value="off">off</option>
          <option value="squash">squash</option>
          <option value="merge">merge commit</option>
          <option value="rebase">rebase</option>
        </select>
        <button type="submit" disabled={save.busy}>Set auto-merge</button>
        <span id={`${key}-merge-why`} class="muted">when green, approved, not a draft and free of unresolved threads</span>
      </form>
      <ProjectSandbox project={p} patch={patch} busy={save.busy} />
      <h3 id={`${key}-folders`}>Folders</h3>
      <ul class="plain" aria-labelledby={`${key}-folders`}>
        {p.folders.map((f) => (
          <li key={f.name} class="row" data-folder={f.name}>
            <span class="grow"><strong>{f.name}</strong> <code class="muted">{f.path}</code></span>
            {f.name === p.primaryFolder ? <span class="badge">primary</span>
              : <button type="button" disabled={save.busy} aria-label={`Make primary: ${f.name}`}
                  onClick={() => void patch(`${f.name} is the primary folder.`, { primaryFolder: f.name })}>Make primary</button>}
            <button type="button" class="danger" disabled={save.busy || p.folders.length === 1} aria-label={`Remove folder ${f.name}`}
              title={p.folders.length === 1 ? 'a project keeps at least one folder' : undefined}
              onClick={() => void act(`Folder ${f.name} removed.`, () => api<ProjectView>(`projects/${enc(p.id)}/folders/${enc(f.name)}`, { method: 'DELETE' }))}>Remove</button>
          </li>
        ))}
      </ul>
      <form class="add-folder" aria-label={`Add a folder to ${p.name}`} onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const name = value(form, 'name');
        void act('Folder added.', () => api<ProjectView>(`projects/${enc(p.id)}/folders`, { body: { path: value(form, 'path'), ...(name ? { name } : {}) } }), () => form.reset());
      }}>
        <div class="two">
          <div class="field"><label for={`${key}-path`}>Folder path</label><input id={`${key}-path`} name="path" required placeholder="/home/me/code/repo" /></div>
          <div class="field"><label for={`${key}-fname`}>Folder name (optional)</label><input id={`${key}-fname`} name="name" placeholder="(its base name)" /></div>
        </div>
        <button type="submit" disabled={save.busy}>Add folder</button>
      </form>
      <ErrorNote error={save.error} />
      <p class="note" role="status">{save.done}</p>
    </section>
  );
};
