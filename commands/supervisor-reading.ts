import { forbidden, type Refusal } from './refusal.js';

// Rules 4 and 5: what a supervisor may read. A project supervisor sees only its own project
// (list_runs and list_projects leave the rest out; other reads of another project refuse). The
// global supervisor sees every run as list_runs and get_run show it, and reads in full
// (thread, history, log, export, worktree, pull request) only the runs it owns.

export interface Reader {
  readonly id: string;
  /** null for the global supervisor */
  readonly project: string | null;
}

export type ReadTarget =
  /** a workflow or pull request addressed by project */
  | { readonly kind: 'project'; readonly id: string }
  /** full: the run's own words and work (thread, history, log, export, worktree, pull request), not only its listed view */
  | { readonly kind: 'run'; readonly id: string; readonly projectId: string; readonly owner: string | null; readonly full: boolean };

/** the project a supervisor's lists keep, or null for every project */
export const listScope = (r: Reader): string | null => r.project;

export const decideRead = (r: Reader, target: ReadTarget): Refusal | null => {
  if (r.project !== null) {
    const project = target.kind === 'project' ? target.id : target.projectId;
    if (project === r.project) return null;
    return forbidden(`supervisor ${r.id} sees only its own project (${r.project}); ${target.kind === 'run' ? `run ${target.id} is in project ${project}` : `project ${project} is another`}`);
  }
  if (target.kind === 'project' || !target.full || target.owner === r.id) return null;
  return forbidden(`the global supervisor reads in full only runs it owns; run ${target.id} is owned by ${target.owner === null ? 'no supervisor' : `supervisor ${target.owner}`} (get_run and list_runs show it)`);
};
