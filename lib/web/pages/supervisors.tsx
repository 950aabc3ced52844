import { useCallback, useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { useLoad } from '../components/use-load.js';
import type { PageProps } from '../page-props.js';
import { navigate } from '../router.js';
import { SupervisorDetail } from '../supervisors/detail.js';
import { FeatureSwitch } from '../supervisors/feature.js';
import type { ProjectRow, SupervisorView } from '../supervisors/shapes.js';
import { addSupervisorsStyle } from '../supervisors/style.js';
import { Link } from '../ui/link.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';
import { write } from '../supervisors/write.js';

// Supervisors (docs/supervisors.md): the feature switch, the global supervisor and each project's
// (making one for a project that has none), and the chosen one (`?id=`, the global one by
// default) with its cards, chat, settings and key (lib/web/supervisors/).

const enc = encodeURIComponent;

const nameOf = (s: SupervisorView, projects: readonly ProjectRow[]): string =>
  s.project === null ? 'Global supervisor' : `Supervisor of ${projects.find((p) => p.id === s.project)?.name ?? s.project}`;

const stateOf = (s: SupervisorView): string => (!s.enabled ? 'off' : s.pausedUntil ? 'paused' : s.heldBecause ? 'held' : 'on');

const NewSupervisor = ({ projects, onMade }: { readonly projects: readonly ProjectRow[]; readonly onMade: (v: SupervisorView) => void }) => {
  const [project, setProject] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const chosen = project || projects[0]?.id || '';
  if (projects.length === 0) return null;
  const make = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onMade(await write<SupervisorView>('supervisors', { body: { project: chosen } }));
      setProject('');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={make} aria-label="A supervisor for a project">
      <label for="sup-new-project">Project without a supervisor</label>
      <select id="sup-new-project" value={chosen} onChange={(e) => setProject(e.currentTarget.value)}>
        {projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
      </select>
      <button type="submit" disabled={busy}>Create supervisor</button>
      <ErrorNote error={error} />
    </form>
  );
};

export const Page = ({ query }: PageProps) => {
  addSupervisorsStyle();
  const settings = useLoad(() => api<{ supervisors: { enabled: boolean } }>('settings'), []);
  const sups = useLoad(() => api<SupervisorView[]>('supervisors'), []);
  const projects = useLoad(() => api<ProjectRow[]>('projects'), []);
  const harnesses = useLoad(() => api<{ harnesses: { name: string }[] }>('harnesses').then((r) => r.harnesses.map((h) => h.name)), []);
  const list = sups.data ?? [];
  const ps = projects.data ?? [];
  const ordered = [...list].sort((a, b) => (a.project === null ? -1 : b.project === null ? 1 : nameOf(a, ps).localeCompare(nameOf(b, ps))));
  const chosen = ordered.find((s) => s.id === query.get('id')) ?? ordered[0];
  const without = ps.filter((p) => !list.some((s) => s.project === p.id));

  const replace = useCallback((v: SupervisorView) => sups.set((sups.data ?? []).map((s) => (s.id === v.id ? v : s))), [sups.data]);

  return (
    <section aria-labelledby="page-title" class="sup-page">
      <PageHeading title="Supervisors" />
      <ErrorNote error={settings.error ?? sups.error ?? projects.error} />
      <FeatureSwitch enabled={settings.data?.supervisors.enabled} onChange={async () => { await settings.reload(); await sups.reload(); }} />
      {!sups.data ? <Loading what="supervisors" /> : (
        <>
          <nav aria-label="Supervisors">
            {ordered.length === 0 ? <p class="muted">No supervisor yet: switching the feature on makes the global one.</p> : (
              <ul class="roster">
                {ordered.map((s) => (
                  <li key={s.id}>
                    <Link href={`/supervisors?id=${enc(s.id)}`} aria-current={s === chosen ? 'true' : undefined} data-roster={s.id}>
                      {nameOf(s, ps)}<span class="state">{stateOf(s)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </nav>
          <NewSupervisor projects={without} onMade={(v) => { sups.set([...list, v]); navigate(`/supervisors?id=${enc(v.id)}`, { replace: true }); }} />
          {chosen ? <SupervisorDetail key={chosen.id} view={chosen} name={nameOf(chosen, ps)} harnesses={harnesses.data ?? []} onView={replace} /> : null}
        </>
      )}
    </section>
  );
};
