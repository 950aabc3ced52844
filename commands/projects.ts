import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { ProjectEvent } from '../journal/project-events.js';
import type { Projects } from '../projections/projects.js';
import type { ProjectView } from '../domain/runs.js';
import { conflict, invalid, notFound, type Refusal } from './refusal.js';
import { quoted } from '../domain/quoted.js';

// Project commands. Whether a path is a git folder needs I/O: the caller checks and passes the
// facts (`folders` arrive already resolved to absolute paths that are git work trees).

type ProjectDecision = Either<Refusal, ProjectEvent[]>;
export interface FolderInput { readonly name: string; readonly path: string }

const NAME = /^[^\s/\\][^/\\\n\r\t]{0,79}$/;

const checkName = (name: string): Refusal | null =>
  NAME.test(name) && name.trim() === name ? null : invalid(`project name ${JSON.stringify(quoted(name))} must be 1 to 80 characters, no slashes, no surrounding spaces`);

const nameTaken = (ps: Projects, name: string, except?: string): boolean => [...ps.values()].some((p) => p.name === name && p.id !== except);

const checkFolders = (existing: readonly FolderInput[], added: readonly FolderInput[]): Refusal | null => {
  const all = [...existing, ...added];
  const names = new Set(all.map((f) => f.name));
  if (names.size !== all.length) return conflict('folder names must be unique within a project');
  const paths = new Set(all.map((f) => f.path));
  if (paths.size !== all.length) return conflict('a folder is listed twice');
  return null;
};

export const decideAddProject = (ps: Projects, c: { projectId: string; name: string; folders: readonly FolderInput[] }): ProjectDecision => {
  const bad = checkName(c.name) ?? (c.folders.length === 0 ? invalid('a project needs at least one folder') : null) ?? checkFolders([], c.folders);
  if (bad) return left(bad);
  if (nameTaken(ps, c.name)) return left(conflict(`a project named ${JSON.stringify(quoted(c.name))} exists already`));
  return right([{ type: 'ProjectAdded', data: { projectId: c.projectId, name: c.name, folders: [...c.folders] } }]);
};

export const decideRenameProject = (ps: Projects, c: { projectId: string; name: string }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  const bad = checkName(c.name);
  if (bad) return left(bad);
  if (p.name === c.name) return right([]);
  if (nameTaken(ps, c.name, p.id)) return left(conflict(`a project named ${JSON.stringify(quoted(c.name))} exists already`));
  return right([{ type: 'ProjectRenamed', data: { projectId: p.id, name: c.name } }]);
};

export const decideAddFolder = (ps: Projects, c: { projectId: string; folder: FolderInput }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  const bad = checkFolders(p.folders, [c.folder]);
  return bad ? left(bad) : right([{ type: 'FolderAdded', data: { projectId: p.id, folder: c.folder } }]);
};

export const decideRemoveFolder = (ps: Projects, c: { projectId: string; name: string }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  if (!p.folders.some((f) => f.name === c.name)) return left(notFound('folder', c.name));
  if (p.folders.length === 1) return left(conflict('a project keeps at least one folder'));
  return right([{ type: 'FolderRemoved', data: { projectId: p.id, name: c.name } }]);
};

export const decideChooseDefaultWorkflow = (ps: Projects, c: { projectId: string; workflow: string; exists: boolean }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  if (!c.exists) return left(invalid(`unknown workflow ${JSON.stringify(quoted(c.workflow))}`));
  return right(p.defaultWorkflow === c.workflow ? [] : [{ type: 'DefaultWorkflowChosen', data: { projectId: p.id, workflow: c.workflow } }]);
};

export const decideChooseAutoMerge = (ps: Projects, c: { projectId: string; autoMerge: ProjectView['autoMerge'] }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  return right(p.autoMerge?.method === c.autoMerge?.method ? [] : [{ type: 'AutoMergeChosen', data: { projectId: p.id, autoMerge: c.autoMerge } }]);
};

/** null removes the budget; a budget is checked at the doors (lib/inputs/kinds.ts usdBudget) */
export const decideSetDailyBudget = (ps: Projects, c: { projectId: string; dailyBudgetUsd: number | null }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  if (c.dailyBudgetUsd !== null && !(Number.isFinite(c.dailyBudgetUsd) && c.dailyBudgetUsd > 0)) return left(invalid('dailyBudgetUsd is a number of US dollars above 0, or null'));
  if ((p.dailyBudgetUsd ?? null) === c.dailyBudgetUsd) return right([]);
  return right([{ type: 'DailyBudgetSet', data: { projectId: p.id, dailyBudgetUsd: c.dailyBudgetUsd } }]);
};

/** The primary folder is where workflows, personas and pull requests are looked up for the project. */
export const decideChoosePrimaryFolder = (ps: Projects, c: { projectId: string; name: string }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  if (!p.folders.some((f) => f.name === c.name)) return left(notFound('folder', c.name));
  return right(p.primaryFolder === c.name ? [] : [{ type: 'PrimaryFolderChosen', data: { projectId: p.id, name: c.name } }]);
};

/** the preview command as decoded at the doors (lib/inputs/preview.ts); null removes it */
export const decideSetPreviewCommand = (ps: Projects, c: { projectId: string; preview: { argv: readonly string[]; setup?: readonly string[] | null; portEnv?: string } | null }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  const preview = c.preview === null ? null : { argv: [...c.preview.argv], setup: c.preview.setup ? [...c.preview.setup] : null, portEnv: c.preview.portEnv ?? 'PORT' };
  if (JSON.stringify(p.preview ?? null) === JSON.stringify(preview)) return right([]);
  return right([{ type: 'PreviewCommandSet', data: { projectId: p.id, preview } }]);
};
