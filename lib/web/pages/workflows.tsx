import { useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { DiagnosticList, summary } from '../components/diagnostic-list.js';
import { pin } from '../components/diagnostics.js';
import { OriginSections } from '../components/origin-sections.js';
import { chosenProject, ProjectPicker, useProjects } from '../components/project-picker.js';
import type { Validation, WorkflowListItem, WorkflowRead } from '../components/shapes.js';
import { SourceView } from '../components/source-view.js';
import { useLoad } from '../components/use-load.js';
import { WorkflowEditor } from '../components/workflow-editor.js';
import { navigate } from '../router.js';
import type { PageProps } from '../page-props.js';
import { Link } from '../ui/link.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';

// Workflows as one project sees them: the list by origin (`/workflows`), and one workflow
// (`/workflows/<name>`): its text with prompts inlined and its diagnostics pinned to their lines;
// a custom one is edited (checked as you type), saved and deleted here; any other can be copied
// into a custom workflow of the same name, which then takes its place.

const enc = encodeURIComponent;

const ORIGINS: readonly { readonly origin: WorkflowListItem['origin']; readonly title: string; readonly about: string }[] = [
  { origin: 'custom', title: 'Custom', about: 'Saved in svc from this page; a custom workflow takes the place of any other of the same name.' },
  { origin: 'project', title: 'Project', about: "From .svc/workflows in the project's primary folder." },
  { origin: 'home', title: 'Home', about: 'From the workflows folder of the svc home.' },
  { origin: 'shipped', title: 'Shipped', about: 'Come with svc.' },
];

const TEMPLATE = `digraph my_workflow {
  description="What this workflow is for, in one line."
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work -> done
}
`;

const List = ({ project }: { readonly project: string }) => {
  const list = useLoad(() => api<{ workflows: WorkflowListItem[] }>(`workflows?project=${enc(project)}`), [project]);
  const [creating, setCreating] = useState(false);
  const rows = list.data?.workflows;
  return (
    <>
      <ErrorNote error={list.error} />
      {!rows ? <Loading what="workflows" /> : <OriginSections rows={rows} groups={ORIGINS} item={(w) => (
          <li key={w.name} data-workflow={w.name}>
            <div class="row">
              <Link href={`/workflows/${enc(w.name)}?project=${enc(project)}`}><strong>{w.name}</strong></Link>
              {w.standing === 'default' && <span class="badge">default</span>}
              {w.inputs.length > 0 && <span class="muted">inputs: {w.inputs.join(', ')}</span>}
            </div>
            {w.description && <p class="muted about">{w.description}</p>}
          </li>
        )} />}
      <section aria-labelledby="new-workflow" class="panel">
        <h2 id="new-workflow" class="card-title">New workflow</h2>
        {creating
          ? <WorkflowEditor name={null} initial={TEMPLATE} project={project}
              onSaved={(name) => navigate(`/workflows/${enc(name)}?project=${enc(project)}`)} onCancel={() => setCreating(false)} />
          : <button type="button" onClick={() => setCreating(true)}>Write a new workflow</button>}
      </section>
    </>
  );
};

const One = ({ project, name }: { readonly project: string; readonly name: string }) => {
  const q = `?project=${enc(project)}`;
  const read = useLoad(() => api<WorkflowRead>(`workflows/${enc(name)}${q}`), [project, name]);
  const check = useLoad(() => api<Validation>(`workflows/${enc(name)}/validation${q}`), [project, name]);
  const list = useLoad(() => api<{ workflows: WorkflowListItem[] }>(`workflows${q}`), [project]);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState('');
  const w = read.data;
  const v = check.data;
  const item = list.data?.workflows.find((x) => x.name === name);
  const custom = w?.origin === 'custom';

  const remove = async () => {
    setError(null);
    try {
      await api(`workflows/${enc(name)}`, { method: 'DELETE' });
      navigate(`/workflows${q}`);
    } catch (err) {
      setError(err as ApiError);
    }
  };

  return (
    <>
      <ErrorNote error={read.error ?? check.error} />
      {!w ? (read.error ? null : <Loading what="the workflow" />) : (
        <>
          <div class="row">
            <span class="badge">{w.origin}</span>
            {item?.standing === 'default' && <span class="badge">default</span>}
            <span class="muted">version {w.version}</span>
            <Link class="button" href={`/new?project=${enc(project)}&workflow=${enc(name)}`}>Start a run with it</Link>
          </div>
          {item?.description && <p class="about">{item.description}</p>}
          {item && item.inputs.length > 0 && (
            <p class="muted">Inputs: {item.inputs.map((i) => (i in item.defaults ? `${i} (default ${JSON.stringify(item.defaults[i])})` : i)).join(', ')}</p>
          )}
          <p class="note" role="status">{saved}</p>
          {editing ? (
            <WorkflowEditor name={name} initial={w.source} project={project}
              onSaved={(_, result) => {
                setEditing(false);
                setSaved(`Saved. ${summary(result.errors.length, result.warnings.length)}`);
                void read.reload();
                void check.reload();
                void list.reload();
              }}
              onCancel={() => setEditing(false)} />
          ) : (
            <>
              <div class="row">
                {custom ? <button type="button" onClick={() => { setSaved(''); setEditing(true); }}>Edit</button>
                  : <button type="button" onClick={() => { setSaved(''); setEditing(true); }} aria-describedby="customize-about">Customize</button>}
                {custom && !confirming && <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete</button>}
              </div>
              {!custom && <p id="customize-about" class="muted about">Customize saves a copy as a custom workflow named {name}, which takes this one's place until it is deleted.</p>}
              {confirming && (
                <div class="panel" role="group" aria-label="Confirm deletion">
                  <p>Delete the custom workflow {name}? This cannot be undone.</p>
                  <div class="row">
                    <button type="button" class="danger" onClick={() => void remove()}>Delete for good</button>
                    <button type="button" onClick={() => setConfirming(false)}>Keep it</button>
                  </div>
                </div>
              )}
              <ErrorNote error={error} />
              <h2 id="wf-problems">Validation</h2>
              {!v ? <Loading what="the validation" /> : (
                <>
                  <p class={v.loads ? 'note' : 'error'}>{summary(v.errors.length, v.warnings.length)}</p>
                  <DiagnosticList pinned={pin(w.source, v.errors, v.warnings)} label="Problems" />
                </>
              )}
              <h2 id="wf-source">Source, prompts inlined</h2>
              <SourceView source={w.source} pinned={v ? pin(w.source, v.errors, v.warnings) : []} label="Source, prompts inlined" />
              {w.steps.length > 0 && (
                <>
                  <h2 id="wf-steps">Steps</h2>
                  <ul class="plain" aria-labelledby="wf-steps">
                    {w.steps.map((s) => <li key={s.id}><code>{s.id}</code> <span class="muted">{s.kind}</span>{s.label ? ` — ${s.label}` : ''}</li>)}
                  </ul>
                </>
              )}
            </>
          )}
        </>
      )}
    </>
  );
};

export const Page = ({ params, query }: PageProps) => {
  const projects = useProjects();
  const project = chosenProject(projects.data, query.get('project'));
  const name = params['name'];
  return (
    <section aria-labelledby="page-title">
      <PageHeading title={name ?? 'Workflows'}>
        {name && <Link href={`/workflows${project ? `?project=${enc(project.id)}` : ''}`}>All workflows</Link>}
      </PageHeading>
      <ProjectPicker projects={projects.data} chosen={project} error={projects.error} />
      {!projects.data ? <Loading what="projects" /> : !project ? <p class="muted">Workflows are read per project: <Link href="/projects">create a project</Link> first.</p>
        : name ? <One key={`${project.id}/${name}`} project={project.id} name={name} /> : <List project={project.id} />}
    </section>
  );
};
