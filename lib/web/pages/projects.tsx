import { api } from '../api.js';
import { ProjectCard } from '../components/project-card.js';
import type { ProjectView } from '../components/shapes.js';
import { useLoad } from '../components/use-load.js';
import { useSave } from '../components/use-save.js';
import type { PageProps } from '../page-props.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';

// Projects: create one from git folders (one absolute path a line), then rename it, choose its
// default workflow and primary folder, add and remove folders (components/project-card.tsx).

export const Page = (_: PageProps) => {
  const projects = useLoad(() => api<ProjectView[]>('projects'), []);
  const save = useSave();
  const list = projects.data ?? [];

  const replace = (p: ProjectView) => projects.set(list.map((q) => (q.id === p.id ? p : q)));

  const create = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const folders = String(data.get('folders') ?? '').split('\n').map((l) => l.trim()).filter(Boolean).map((path) => ({ path }));
    const created = await save.run(async () => {
      const p = await api<ProjectView>('projects', { body: { name: String(data.get('name') ?? '').trim(), folders } });
      projects.set([...list, p]);
      return p;
    }, (p) => `Project ${p.name} created.`);
    if (created) form.reset();
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeading title="Projects" />
      <ErrorNote error={projects.error} />
      {!projects.data ? <Loading what="projects" /> : list.length === 0 ? <p class="muted">No project yet: create the first one below.</p>
        : list.map((p) => <ProjectCard key={p.id} project={p} onChange={replace} />)}
      <form class="panel stack" onSubmit={create} aria-labelledby="new-project">
        <h2 id="new-project" class="card-title">New project</h2>
        <div class="field"><label for="np-name">Project name</label><input id="np-name" name="name" required maxLength={80} /></div>
        <div class="field">
          <label for="np-folders">Folder paths</label>
          <textarea id="np-folders" name="folders" rows={2} required aria-describedby="np-folders-hint" placeholder="/home/me/code/repo" />
          <p id="np-folders-hint" class="muted about">The full path of each git folder, one a line; the first is the primary folder.</p>
        </div>
        <ErrorNote error={save.error} />
        <p class="note" role="status">{save.done}</p>
        <button type="submit" disabled={save.busy}>Create project</button>
      </form>
    </section>
  );
};
