import { realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve as resolvePath } from 'node:path';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { decideAddFolder, decideAddProject, decideChooseAutoMerge, decideChooseDefaultWorkflow, decideChoosePrimaryFolder, decideRemoveFolder, decideRenameProject, type FolderInput, decideSetDailyBudget, decideSetPreviewCommand } from '../../commands/projects.js';
import { invalid, notFound, type Outcome, type Refusal } from '../../commands/refusal.js';
import type { ProjectEvent } from '../../journal/project-events.js';
import { evolveProjects, findProject } from '../../projections/projects.js';
import { gitOk } from '../git/git.js';
import type { ProjectView, SandboxMode } from '../../domain/runs.js';
import { decideChooseSandbox, decideSetEgressAllowlist } from '../../commands/sandbox.js';
import { decideChooseRunOn, isPlaceChoice, type RunOnWorker } from '../../commands/run-on.js';
import type { ServiceCore } from './core.js';
import { quoted } from '../../domain/quoted.js';

// Projects: each folder must be a git work tree; it is stored as the real absolute path of the
// repository's top folder, named by its base name unless a name is given.

export interface FolderRequest { readonly path: string; readonly name?: string }

// A folder name is one path segment of the run's worktree folder and a URL segment of its route.
const folderNameProblem = (name: string): string | null =>
  name.trim() !== name || name === '.' || name === '..' || /[/\\\0\n\r]/.test(name) || name.length > 80
    ? `folder name ${JSON.stringify(quoted(name))} must be 1 to 80 characters, no slashes or surrounding spaces, not . or ..`
    : null;

export const resolveFolder = async (f: FolderRequest): Promise<Either<Refusal, FolderInput>> => {
  const named = f.name === undefined ? null : folderNameProblem(f.name);
  if (named) return left(invalid(named));
  // Relative to what? The server's working folder means nothing to a client: refuse it.
  if (!isAbsolute(f.path)) return left(invalid(`${quoted(f.path)} is not an absolute path; give the folder's full path`));
  const abs = resolvePath(f.path);
  try {
    if (!statSync(abs).isDirectory()) return left(invalid(`${quoted(f.path)} is not a folder`));
    const top = (await gitOk(abs, ['rev-parse', '--show-toplevel'], { timeoutMs: 10_000 })).trim();
    const path = realpathSync(top);
    return right({ name: f.name ?? basename(path), path });
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'is not a git folder';
    return left(invalid(`${quoted(f.path)} ${why}`));
  }
};

const resolveAll = async (fs: readonly FolderRequest[]): Promise<Either<Refusal, FolderInput[]>> => {
  const out: FolderInput[] = [];
  for (const f of fs) {
    const r = await resolveFolder(f);
    if (isLeft(r)) return r;
    out.push(r.right);
  }
  return right(out);
};

const commit = (core: ServiceCore, projectId: string, d: Either<Refusal, ProjectEvent[]>): Outcome<ProjectView> => {
  if (isLeft(d)) return d;
  core.projects.transact(() => d, { at: core.now().toISOString(), onStale: 'refuse' });
  const p = core.projects.current.get(projectId);
  return p ? right(p) : left(notFound('project', projectId));
};

const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'project';

const freshId = (core: ServiceCore, name: string): string => {
  const base = slug(name);
  let id = base;
  for (let i = 2; core.projects.current.has(id); i++) id = `${base}-${i}`;
  return id;
};

export const addProject = async (core: ServiceCore, name: string, folders: readonly FolderRequest[]): Promise<Outcome<ProjectView>> => {
  const resolved = await resolveAll(folders);
  if (isLeft(resolved)) return resolved;
  const projectId = freshId(core, name);
  return commit(core, projectId, decideAddProject(core.projects.current, { projectId, name, folders: resolved.right }));
};

export const renameProject = (core: ServiceCore, projectId: string, name: string): Outcome<ProjectView> =>
  commit(core, projectId, decideRenameProject(core.projects.current, { projectId, name }));

export const addFolder = async (core: ServiceCore, projectId: string, folder: FolderRequest): Promise<Outcome<ProjectView>> => {
  if (!core.projects.current.has(projectId)) return left(notFound('project', projectId));
  const r = await resolveFolder(folder);
  if (isLeft(r)) return r;
  return commit(core, projectId, decideAddFolder(core.projects.current, { projectId, folder: r.right }));
};

export const removeFolder = (core: ServiceCore, projectId: string, name: string): Outcome<ProjectView> =>
  commit(core, projectId, decideRemoveFolder(core.projects.current, { projectId, name }));

export const chooseDefaultWorkflow = (core: ServiceCore, projectId: string, workflow: string): Outcome<ProjectView> => {
  const p = core.projects.current.get(projectId);
  const exists = p ? !isLeft(core.workflows.load(p, workflow)) : false;
  return commit(core, projectId, decideChooseDefaultWorkflow(core.projects.current, { projectId, workflow, exists }));
};

/**
 * PATCH: a new name, a default workflow and a primary folder, all or nothing. Each change is decided against the
 * state the previous one leaves, and the events are appended together only when every one is
 * accepted, so a refused field never leaves the other applied.
 */
export interface ProjectPatch {
  readonly name?: string;
  readonly defaultWorkflow?: string;
  readonly primaryFolder?: string;
  readonly dailyBudgetUsd?: number | null;
  readonly autoMerge?: ProjectView['autoMerge'];
  readonly sandbox?: SandboxMode;
  readonly egressAllow?: readonly string[];
  readonly egressAllowFull?: readonly string[];
  readonly preview?: Parameters<typeof decideSetPreviewCommand>[1]['preview'];
  readonly runOn?: string;
}

/** what the hub knows of a worker named as a place to run ('here' and 'any' name none) */
export const workerFact = (core: ServiceCore, runOn: string): RunOnWorker | undefined => {
  if (isPlaceChoice(runOn)) return undefined;
  const w = core.workers.current.get(runOn);
  return !w ? 'unknown' : w.revoked ? 'revoked' : 'active';
};

export const updateProject = (core: ServiceCore, projectId: string, patch: ProjectPatch): Outcome<ProjectView> => {
  const p = core.projects.current.get(projectId);
  if (!p) return left(notFound('project', projectId));
  let state = core.projects.current;
  const events: ProjectEvent[] = [];
  const step = (d: Either<Refusal, ProjectEvent[]>): Refusal | null => {
    if (isLeft(d)) return d.left;
    events.push(...d.right);
    state = d.right.reduce(evolveProjects, state);
    return null;
  };
  const renamed = patch.name === undefined ? null : step(decideRenameProject(state, { projectId, name: patch.name }));
  if (renamed) return left(renamed);
  const primary = patch.primaryFolder === undefined ? null : step(decideChoosePrimaryFolder(state, { projectId, name: patch.primaryFolder }));
  if (primary) return left(primary);
  if (patch.defaultWorkflow !== undefined) {
    // the default workflow must load from the primary folder this patch leaves
    const exists = !isLeft(core.workflows.load(state.get(projectId) ?? p, patch.defaultWorkflow));
    const chosen = step(decideChooseDefaultWorkflow(state, { projectId, workflow: patch.defaultWorkflow, exists }));
    if (chosen) return left(chosen);
  }
  const merge = patch.autoMerge === undefined ? null : step(decideChooseAutoMerge(state, { projectId, autoMerge: patch.autoMerge }));
  if (merge) return left(merge);
  const budget = patch.dailyBudgetUsd === undefined ? null : step(decideSetDailyBudget(state, { projectId, dailyBudgetUsd: patch.dailyBudgetUsd }));
  if (budget) return left(budget);
  const preview = patch.preview === undefined ? null : step(decideSetPreviewCommand(state, { projectId, preview: patch.preview }));
  if (preview) return left(preview);
  const sandbox = patch.sandbox === undefined ? null : step(decideChooseSandbox(state, { projectId, sandbox: patch.sandbox }));
  if (sandbox) return left(sandbox);
  const lists = patch.egressAllow === undefined && patch.egressAllowFull === undefined ? null
    : step(decideSetEgressAllowlist(state, { projectId, ...(patch.egressAllow ? { allow: patch.egressAllow } : {}), ...(patch.egressAllowFull ? { full: patch.egressAllowFull } : {}) }));
  if (lists) return left(lists);
  const runOn = patch.runOn === undefined ? null : step(decideChooseRunOn(state, { projectId, runOn: patch.runOn, ...(isPlaceChoice(patch.runOn) ? {} : { worker: workerFact(core, patch.runOn) }) }));
  if (runOn) return left(runOn);
  return commit(core, projectId, right(events));
};

export const getProject = (core: ServiceCore, idOrName: string): Outcome<ProjectView> => {
  const p = findProject(core.projects.current, idOrName);
  return p ? right(p) : left(notFound('project', idOrName));
};
