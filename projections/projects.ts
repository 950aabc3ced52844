import type { ProjectEvent } from '../journal/project-events.js';
import type { ProjectView } from '../domain/runs.js';

// All projects, folded from the 'projects' journal. The primary folder is the one chosen, else the
// first; removing the primary folder makes the first remaining one primary.
export type Projects = ReadonlyMap<string, ProjectView>;

const change = (ps: Projects, id: string, f: (p: ProjectView) => ProjectView): Projects => {
  const p = ps.get(id);
  if (!p) return ps;
  return new Map(ps).set(id, f(p));
};

const withFolders = (p: ProjectView, folders: ProjectView['folders']): ProjectView =>
  ({ ...p, folders, primaryFolder: folders.some((f) => f.name === p.primaryFolder) ? p.primaryFolder : folders[0]?.name ?? '' });

const withBudget = (p: ProjectView, budget: number | null): ProjectView => {
  const { dailyBudgetUsd: _old, ...rest } = p;
  return budget === null ? rest : { ...rest, dailyBudgetUsd: budget };
};

const withPreview = (p: ProjectView, preview: ProjectView['preview'] | null): ProjectView => {
  const { preview: _old, ...rest } = p;
  return preview ? { ...rest, preview } : rest;
};

export const evolveProjects = (ps: Projects, e: ProjectEvent): Projects => {
  switch (e.type) {
    case 'ProjectAdded':
      return new Map(ps).set(e.data.projectId, withFolders({ id: e.data.projectId, name: e.data.name, folders: [], primaryFolder: '', defaultWorkflow: 'default', autoMerge: null }, e.data.folders));
    case 'ProjectRenamed': return change(ps, e.data.projectId, (p) => ({ ...p, name: e.data.name }));
    case 'FolderAdded': return change(ps, e.data.projectId, (p) => withFolders(p, [...p.folders, e.data.folder]));
    case 'FolderRemoved': return change(ps, e.data.projectId, (p) => withFolders(p, p.folders.filter((f) => f.name !== e.data.name)));
    case 'DefaultWorkflowChosen': return change(ps, e.data.projectId, (p) => ({ ...p, defaultWorkflow: e.data.workflow }));
    case 'PrimaryFolderChosen': return change(ps, e.data.projectId, (p) => ({ ...p, primaryFolder: e.data.name }));
    case 'AutoMergeChosen': return change(ps, e.data.projectId, (p) => ({ ...p, autoMerge: e.data.autoMerge }));
    case 'DailyBudgetSet': return change(ps, e.data.projectId, (p) => withBudget(p, e.data.dailyBudgetUsd));
    case 'PreviewCommandSet': return change(ps, e.data.projectId, (p) => withPreview(p, e.data.preview));
    case 'SandboxChosen': return change(ps, e.data.projectId, (p) => ({ ...p, sandbox: e.data.sandbox }));
    case 'RunOnChosen': return change(ps, e.data.projectId, (p) => ({ ...p, runOn: e.data.runOn }));
    case 'EgressAllowlistSet': return change(ps, e.data.projectId, (p) => ({ ...p, egressAllow: e.data.allow, egressAllowFull: e.data.full }));
  }
};

/** A project by id, or else by name (the MCP tools accept either). */
export const findProject = (ps: Projects, idOrName: string): ProjectView | undefined =>
  ps.get(idOrName) ?? [...ps.values()].find((p) => p.name === idOrName);

export const primaryFolderPath = (p: ProjectView): string => p.folders.find((f) => f.name === p.primaryFolder)?.path ?? p.folders[0]?.path ?? '';
