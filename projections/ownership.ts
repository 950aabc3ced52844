// Who owns a run (a supervisor acts only on runs it owns): the supervisor it was handed to, else its
// project's supervisor, else the global one; null while none of those exists. Pure over the
// run's own history (handovers are run events) and the supervisors that exist.

export interface OwnerCandidate {
  readonly id: string;
  /** null for the global supervisor */
  readonly project: string | null;
}

export interface OwnedRun {
  readonly projectId: string;
  /** the supervisor the run was last handed to (RunHandedOver) */
  readonly handedTo?: string;
}

export const ownerOf = (run: OwnedRun, supervisors: readonly OwnerCandidate[]): string | null => {
  if (run.handedTo && supervisors.some((s) => s.id === run.handedTo)) return run.handedTo;
  const own = supervisors.find((s) => s.project === run.projectId);
  if (own) return own.id;
  return supervisors.find((s) => s.project === null)?.id ?? null;
};

/** the supervisor that would own a new run in a project (it starts runs only where it would own them) */
export const ownerOfNewRun = (projectId: string, supervisors: readonly OwnerCandidate[]): string | null => ownerOf({ projectId }, supervisors);
