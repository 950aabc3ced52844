import { api } from '../api.js';
import { PersonaDetail } from '../components/persona-detail.js';
import { PersonaForm } from '../components/persona-form.js';
import { OriginSections } from '../components/origin-sections.js';
import { partsOf, PERSONA_ORIGINS, settingsLine, type PersonaItem } from '../components/persona-shapes.js';
import { ProjectPicker, useProjects } from '../components/project-picker.js';
import { useLoad } from '../components/use-load.js';
import type { PageProps } from '../page-props.js';
import { Link } from '../ui/link.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';

// Personas (docs/personas.md): the list by origin (`/personas`), as every project sees them or, with
// `?project=`, as one project does (its own .svc/personas too); one persona (`/personas/<name>`);
// a form for a new custom persona. Everything a persona says is shown as text.

const enc = encodeURIComponent;

const List = ({ project }: { readonly project: string | undefined }) => {
  const q = project ? `?project=${enc(project)}` : '';
  const list = useLoad(() => api<{ personas: PersonaItem[] }>(`personas${q}`), [q]);
  const rows = list.data?.personas;
  return (
    <>
      <ErrorNote error={list.error} />
      {!rows ? <Loading what="personas" /> : <OriginSections rows={rows} groups={PERSONA_ORIGINS} item={(p) => (
          <li key={p.name} data-persona={p.name}>
            <div class="row">
              <Link href={`/personas/${enc(p.name)}${q}`}><strong>{p.name}</strong></Link>
              {!p.loads && <span class="badge warning">does not load</span>}
              {settingsLine(p) && <span class="muted">{settingsLine(p)}</span>}
            </div>
            {p.description && <p class="muted about">{p.description}</p>}
            {!p.loads && <p class="warning about">{p.problems.join('; ')}</p>}
          </li>
        )} />}
      <section aria-labelledby="new-persona" class="panel">
        <h2 id="new-persona" class="card-title">New persona</h2>
        <PersonaForm name={null} initial={partsOf(undefined)} onSaved={() => void list.reload()} />
      </section>
    </>
  );
};

export const Page = ({ params, query }: PageProps) => {
  const projects = useProjects();
  const wanted = query.get('project');
  const project = projects.data?.find((p) => p.id === wanted);
  // until the projects are read, keep the one asked for, so the first read is already the right one
  const projectId = projects.data ? project?.id : wanted ?? undefined;
  const name = params['name'];
  const q = projectId ? `?project=${enc(projectId)}` : '';
  return (
    <section aria-labelledby="page-title">
      <PageHeading title={name ?? 'Personas'}>
        {name && <Link href={`/personas${q}`}>All personas</Link>}
      </PageHeading>
      {!name && <p class="muted about">Roles for agent steps: a prompt that frames the agent, and optionally its harness, model and tools. A workflow step names one with persona=NAME.</p>}
      <ProjectPicker projects={projects.data} chosen={project} error={projects.error} none="No project" />
      {name ? <PersonaDetail key={`${projectId}/${name}`} project={projectId} name={name} /> : <List project={projectId} />}
    </section>
  );
};
