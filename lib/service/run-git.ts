import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { conflict, invalid, notFound, type Outcome } from '../../commands/refusal.js';
import { readAddressedPullRequest } from '../codehost/read-pull-request.js';
import { githubClient } from '../codehost/github.js';
import { toRefusal } from '../codehost/refusal.js';
import { readRunWorktree as readWorktree } from '../git/worktree-status.js';
import { secureRunWork as secure } from '../git/secure.js';
import { findProject, primaryFolderPath } from '../../projections/projects.js';
import type { Actor } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { type ServiceCore } from './core.js';
import { detailOf } from '../read-models/run-detail.js';
import { worktreesFor } from '../../commands/worktree.js';

// The run's git work and its pull requests: read the worktrees, secure the work, read a PR.

export const readRunWorktree = async (core: ServiceCore, runId: string): Promise<Outcome<{ run: RunDetail; folders: readonly unknown[] }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const checkouts = worktreesFor(s, 'there are no files to show');
  if (isLeft(checkouts)) return checkouts;
  const folders = await readWorktree(checkouts.right);
  return right({ run: detailOf(core, s), folders });
};

export const secureRunWork = async (core: ServiceCore, runId: string, reason: string | undefined, by: Actor): Promise<Outcome<{ run: RunDetail; folders: readonly unknown[] }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const checkouts = worktreesFor(s, 'there is no work to secure');
  if (isLeft(checkouts)) return checkouts;
  const r = await secure(runId, checkouts.right);
  if (isLeft(r)) return left(conflict(r.left));
  const note = `work secured by ${by.kind}${by.name ? ` ${by.name}` : ''}${reason ? `: ${reason}` : ''}`;
  core.runs.transact(runId, () => right([{ type: 'ServiceNoted', data: { text: note } }]), { at: core.now().toISOString(), onStale: 'retry' });
  core.logs.write(runId, 'service', note);
  return right({ run: detailOf(core, core.runs.get(runId) ?? s), folders: r.right });
};

export const readPullRequest = async (core: ServiceCore, a: { run?: string; project?: string; number?: number }): Promise<Outcome<{ pullRequest: unknown }>> => {
  if (!a.run && !a.project) return left(invalid('name a run, or a project with a number'));
  if (a.project && !a.run && a.number === undefined) return left(invalid('a project needs a pull request number'));
  const run = a.run ? core.runs.get(a.run) : undefined;
  if (a.run && !run) return left(notFound('run', a.run));
  const project = run ? core.projects.current.get(run.projectId) : a.project ? findProject(core.projects.current, a.project) : undefined;
  if (!project) return left(notFound('project', a.project ?? run?.projectId ?? ''));
  const cfg = core.settings.current.codeHost;
  const input = {
    ...(run ? { run: { pullRequests: run.pullRequests, primaryFolderPath: primaryFolderPath(project) } } : { project: { primaryFolderPath: primaryFolderPath(project) } }),
    ...(a.number !== undefined ? { number: a.number } : {}),
  };
  const r = await readAddressedPullRequest(input, { webHost: cfg.webHost, client: githubClient(cfg) });
  return isLeft(r) ? left(toRefusal(r.left)) : right({ pullRequest: r.right });
};
