import { forbidden, type Refusal } from './refusal.js';

// Rules 2 and 3: a supervisor acts only on runs it owns, and starts runs only in projects whose
// runs it would own. Who owns what is projections/ownership.ts; a refusal names the owner.

const named = (owner: string | null): string => (owner === null ? 'no supervisor' : `supervisor ${owner}`);

/** a supervisor acts only on runs it owns; a call on another's run names the owner */
export const decideOwnsRun = (supervisor: string, run: { readonly id: string; readonly owner: string | null }): Refusal | null =>
  run.owner === supervisor ? null : forbidden(`run ${run.id} is owned by ${named(run.owner)}, not by supervisor ${supervisor}; a supervisor acts only on runs it owns`);

/** a supervisor starts runs only in projects whose runs it would own: `owner` is who would own a new run in the project */
export const decideMayStartIn = (supervisor: string, project: { readonly id: string; readonly owner: string | null }): Refusal | null =>
  project.owner === supervisor ? null : forbidden(`runs in project ${project.id} would be owned by ${named(project.owner)}; supervisor ${supervisor} starts runs only in projects whose runs it would own`);
