import { STANDINGS } from '../../../../domain/runs.js';
import type { Filters } from './groups.js';

// The board's filters; each change is in the page's query, so a filtered board can be linked.

export interface FilterBarProps {
  readonly filters: Filters;
  readonly projects: readonly { readonly id: string; readonly name: string }[];
  readonly workflows: readonly string[];
  readonly onChange: (f: Filters) => void;
}

export const FilterBar = ({ filters: f, projects, workflows, onChange }: FilterBarProps) => (
  <form class="filters" role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
    <label>Search
      <input type="search" name="q" value={f.text} placeholder="title, goal or id" onInput={(e) => onChange({ ...f, text: e.currentTarget.value })} />
    </label>
    <label>Project
      <select name="project" value={f.project} onChange={(e) => onChange({ ...f, project: e.currentTarget.value })}>
        <option value="">All projects</option>
        {projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
      </select>
    </label>
    <label>Workflow
      <select name="workflow" value={f.workflow} onChange={(e) => onChange({ ...f, workflow: e.currentTarget.value })}>
        <option value="">All workflows</option>
        {workflows.map((w) => <option key={w} value={w}>{w}</option>)}
      </select>
    </label>
    <label>Standing
      <select name="standing" value={f.standing} onChange={(e) => onChange({ ...f, standing: e.currentTarget.value })}>
        <option value="">Any standing</option>
        {STANDINGS.map((s) => <option key={s} value={s}>{s}</option>)}
      </select>
    </label>
    <label class="check">
      <input type="checkbox" name="archived" checked={f.archived} onChange={(e) => onChange({ ...f, archived: e.currentTarget.checked })} /> Show archived
    </label>
  </form>
);
