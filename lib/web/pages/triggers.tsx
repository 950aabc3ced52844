import { api } from '../api.js';
import { useProjects } from '../components/project-picker.js';
import { TriggerCard } from '../components/trigger-card.js';
import { TriggerForm } from '../components/trigger-form.js';
import type { TriggerRule } from '../components/trigger-shapes.js';
import { useLoad } from '../components/use-load.js';
import type { PageProps } from '../page-props.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';

// Trigger rules (docs/triggers.md): each rule with its status, fire/test, on/off, edit, events and
// delete; a form for a new one. A new webhook rule shows its secret this once.

export const Page = (_: PageProps) => {
  const rules = useLoad(() => api<TriggerRule[]>('triggers'), []);
  const projects = useProjects();
  const list = rules.data ?? [];
  // a change answers the rule without its secret: keep one that was just shown
  const replace = (r: TriggerRule) => rules.set(list.map((q) => (q.id === r.id ? { ...r, ...(r.secret ? {} : q.secret ? { secret: q.secret } : {}) } : q)));
  return (
    <section aria-labelledby="page-title">
      <PageHeading title="Triggers" />
      <p class="muted about">Rules that start runs when a time comes round, a webhook is called, a file is written or an issue or pull request asks for it.</p>
      <ErrorNote error={rules.error ?? projects.error} />
      {!rules.data ? <Loading what="trigger rules" /> : list.length === 0 ? <p class="muted">No rule yet.</p>
        : list.map((r) => <TriggerCard key={r.id} rule={r} onChange={replace} onDeleted={(id) => rules.set(list.filter((q) => q.id !== id))} />)}
      {projects.data && (projects.data.length === 0 ? <p class="muted">A rule needs a project: create one first.</p>
        : <TriggerForm projects={projects.data} onCreated={(r) => rules.set([...list, r])} />)}
    </section>
  );
};
