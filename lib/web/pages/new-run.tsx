import { useEffect, useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { type HarnessRow, type ProjectView, type WorkflowListItem, availabilityText } from '../components/shapes.js';
import { Field } from '../components/field.js';
import { HarnessNeeds } from '../components/harness-needs.js';
import { SandboxNote } from '../components/sandbox-note.js';
import { useLoad } from '../components/use-load.js';
import { navigate } from '../router.js';
import type { PageProps } from '../page-props.js';
import { Link } from '../ui/link.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';
import { AgentsPicker, agentsBody, type PickedAgent } from '../attempts/agents-picker.js';

// Starting a run: project, workflow (with its description), the workflow's declared inputs with
// their defaults, goal, title, harness and model, start now or later. A harness the chosen steps
// need that is known not to work is said before starting (components/harness-needs.tsx). `?project=` and `?workflow=`
// preselect (the Projects and Workflows pages link here with them).

const enc = encodeURIComponent;

export const Page = ({ query }: PageProps) => {
  const projects = useLoad(() => api<ProjectView[]>('projects'), []);
  const harnesses = useLoad(() => api<{ harnesses: HarnessRow[] }>('harnesses'), []);
  const [project, setProject] = useState(query.get('project') ?? '');
  const chosen = projects.data?.find((p) => p.id === project);
  const workflows = useLoad(chosen ? () => api<{ workflows: WorkflowListItem[] }>(`workflows?project=${enc(chosen.id)}`) : null, [chosen?.id]);
  const [workflow, setWorkflow] = useState(query.get('workflow') ?? '');
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [harness, setHarness] = useState('');
  const [several, setSeveral] = useState(false);
  const [agents, setAgents] = useState<PickedAgent[]>([]);
  const [startNow, setStartNow] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  // The first project unless the address named one that exists.
  useEffect(() => {
    const list = projects.data;
    if (list && !list.some((p) => p.id === project)) setProject(list[0]?.id ?? '');
  }, [projects.data]);

  // The project's default workflow unless one of its workflows is already chosen.
  const list = workflows.data?.workflows;
  useEffect(() => {
    if (list && !list.some((w) => w.name === workflow)) setWorkflow(list.find((w) => w.standing === 'default')?.name ?? list[0]?.name ?? '');
  }, [list]);

  const wf = list?.find((w) => w.name === workflow);
  // A new workflow: its own inputs, prefilled with its defaults.
  useEffect(() => { setInputs(wf ? { ...wf.defaults } : {}); }, [wf?.name, chosen?.id]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const text = (k: string) => String(form.get(k) ?? '').trim();
    const given = Object.fromEntries(Object.entries(inputs).filter(([k, v]) => wf?.inputs.includes(k) && (v !== '' || k in (wf?.defaults ?? {}))));
    const body = {
      project,
      workflow,
      goal: String(form.get('goal') ?? ''),
      ...(Object.keys(given).length ? { inputs: given } : {}),
      ...(text('title') ? { title: text('title') } : {}),
      ...(several ? { attempts: agentsBody(agents) } : {}),
      ...(!several && harness ? { harness } : {}),
      ...(!several && harness && text('model') ? { model: text('model') } : {}),
      ...(text('budgetUsd') ? { budgetUsd: Number(text('budgetUsd')) } : {}),
      start: startNow,
    };
    setBusy(true);
    setError(null);
    try {
      const r = await api<{ runId: string; attempts?: unknown[] }>('runs', { body });
      // attempts: the board, where the group is one card to follow and compare
      navigate(r.attempts ? `/?project=${enc(project)}` : `/runs/${enc(r.runId)}`);
    } catch (err) {
      setError(err as ApiError);
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeading title="New run" />
      <ErrorNote error={projects.error ?? workflows.error} />
      {!projects.data ? <Loading what="projects" /> : projects.data.length === 0 ? (
        <p class="muted">There is no project yet. <Link href="/projects">Create one</Link> first.</p>
      ) : (
        <form class="stack" onSubmit={submit} aria-label="New run">
          <Field id="nr-project" label="Project">
            <select id="nr-project" name="project" value={project} onChange={(e) => setProject(e.currentTarget.value)} required>
              {projects.data.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
            </select>
          </Field>
          <Field id="nr-workflow" label="Workflow">
            <select id="nr-workflow" name="workflow" value={workflow} onChange={(e) => setWorkflow(e.currentTarget.value)} required aria-describedby="workflow-about">
              {(list ?? []).map((w) => <option key={w.name} value={w.name}>{w.name}{w.standing === 'default' ? ' (default)' : ''}</option>)}
            </select>
          </Field>
          <p id="workflow-about" class="muted about">{!list ? 'Loading workflows…' : wf?.description || (wf ? 'This workflow has no description.' : '')}</p>
          {wf && wf.inputs.length > 0 && (
            <fieldset>
              <legend>Inputs of {wf.name}</legend>
              {wf.inputs.map((name) => {
                const optional = name in wf.defaults;
                return (
                  <label key={name}>{name}{optional ? '' : ' (required)'}
                    <input name={`input-${name}`} value={inputs[name] ?? ''} required={!optional}
                      onInput={(e) => setInputs({ ...inputs, [name]: e.currentTarget.value })} />
                  </label>
                );
              })}
            </fieldset>
          )}
          <label>Goal <textarea name="goal" rows={4} required /></label>
          <label>Title <input name="title" maxLength={80} placeholder="(from the goal)" /></label>
          <label>Budget in US dollars <input name="budgetUsd" type="number" min="0.01" step="0.01" inputMode="decimal" placeholder="(the workflow's, else none)" /></label>
          <label class="check"><input type="checkbox" name="several" checked={several} onChange={(e) => setSeveral(e.currentTarget.checked)} /> Try on several agents (one run each, compared side by side)</label>
          {several ? <AgentsPicker harnesses={harnesses.data?.harnesses ?? []} picked={agents} onChange={setAgents} /> : (
          <div class="two">
            <Field id="nr-harness" label="Harness">
              <select id="nr-harness" name="harness" value={harness} onChange={(e) => setHarness(e.currentTarget.value)}>
                <option value="">The workflow's choice</option>
                {(harnesses.data?.harnesses ?? []).map((h) => (
                  <option key={h.name} value={h.name}>{h.name} — {availabilityText(h.availability)}</option>
                ))}
              </select>
            </Field>
            <Field id="nr-model" label="Model">
              <input id="nr-model" name="model" disabled={!harness} placeholder={harness ? `(${harness}'s default)` : '(choose a harness first)'} />
            </Field>
          </div>
          )}
          {several ? null : <HarnessNeeds project={project} workflow={workflow} harness={harness} />}
          <SandboxNote project={project} workflow={workflow} />
          <label class="check"><input type="checkbox" name="start" checked={startNow} onChange={(e) => setStartNow(e.currentTarget.checked)} /> Start now (otherwise the run is recorded and waits to be started)</label>
          <ErrorNote error={error} />
          <button type="submit" disabled={busy || !project || !workflow || (several && agents.length < 2)}>{several ? `${startNow ? 'Start' : 'Create'} ${agents.length >= 2 ? `${agents.length} ` : ''}attempts` : startNow ? 'Start run' : 'Create run'}</button>
        </form>
      )}
    </section>
  );
};
