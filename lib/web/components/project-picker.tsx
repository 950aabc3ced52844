import { api } from '../api.js';
import { navigate, place } from '../router.js';
import { ErrorNote } from '../ui/page.js';
import type { ProjectView } from './shapes.js';
import { useLoad } from './use-load.js';

// Pages that show one project's view of something (its workflows, personas) keep the project in
// the address (`?project=`), so a link or a reload shows the same; the first project otherwise.
// With `none`, the picker also offers no project (its label), which drops `?project=`.

export const useProjects = () => useLoad(() => api<ProjectView[]>('projects'), []);

export const chosenProject = (projects: readonly ProjectView[] | undefined, wanted: string | null): ProjectView | undefined =>
  projects?.find((p) => p.id === wanted) ?? projects?.[0];

export const ProjectPicker = ({ projects, chosen, error, none }: {
  readonly projects: readonly ProjectView[] | undefined; readonly chosen: ProjectView | undefined; readonly error?: Error | null; readonly none?: string;
}) => (
  <div class="inline-form">
    <ErrorNote error={error} />
    <label for="pick-project">Project</label>
    <select id="pick-project" value={chosen?.id ?? ''} onChange={(e) => {
      const q = new URLSearchParams(place.value.query);
      const id = e.currentTarget.value;
      if (id) q.set('project', id);
      else q.delete('project');
      const search = q.toString();
      navigate(`${place.value.path}${search ? `?${search}` : ''}`, { replace: true });
    }}>
      {none !== undefined && <option value="">{none}</option>}
      {(projects ?? []).map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
    </select>
  </div>
);
