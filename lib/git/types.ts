// Shapes of the git side of a run. Plain data: they go into events and answers as they are.

/** One folder of a project, as the project names it. */
export interface ProjectFolder {
  readonly name: string;
  readonly path: string;
}

/** A run's own checkout of one project folder: a git worktree on the run's branch. */
export interface RunCheckout {
  /** the project folder's name */
  readonly folder: string;
  /** the user's own checkout (never modified by the service) */
  readonly path: string;
  /** the run's worktree, `<home>/worktrees/<runId>/<folder>` */
  readonly directory: string;
  /** the run's branch, `svc/<runId>` in every folder */
  readonly branch: string;
  /** full commit id the run's branch was created from */
  readonly base: string;
  /**
   * The branch the user's checkout was on when the run's branch was created (null when it was
   * detached). Optional so that checkouts recorded before it existed still type-check.
   */
  readonly baseBranch?: string | null;
  /**
   * true: `directory` is the run's own repository (lib/git/run-clones.ts), whose refs svc
   * publishes into `path`'s; absent: a linked worktree of `path` (runs made before clones).
   */
  readonly clone?: boolean;
}

export interface UncommittedCounts {
  readonly staged: number;
  readonly unstaged: number;
  readonly untracked: number;
  readonly conflicted: number;
}

/** A folder of `read_run_worktree` that git could read. */
export interface ReadWorktreeFolder {
  readonly folder: string;
  readonly directory: string;
  readonly branch: string;
  /** current branch of the checkout, null when detached */
  readonly head: string | null;
  readonly uncommitted: UncommittedCounts;
  /** null when no rule found one; commitsAhead then counts from the run's base commit */
  readonly defaultBranch: string | null;
  readonly commitsAhead: number;
}

/**
 * A folder git could not read: only what is known without git, and the reason. Counts are left
 * out rather than given as zeros, so nobody mistakes an unreadable folder for a clean one.
 */
export interface UnreadableWorktreeFolder {
  readonly folder: string;
  readonly directory: string;
  readonly branch: string;
  readonly detail: string;
}

export type WorktreeFolder = ReadWorktreeFolder | UnreadableWorktreeFolder;

/** A folder of `secure_run_work`. `detail` is present exactly when it could not be secured. */
export interface SecuredFolder {
  readonly folder: string;
  readonly branch: string;
  /** the commit made for uncommitted work; null when nothing was uncommitted (or nothing could be committed) */
  readonly commit: string | null;
  /** the remote branch the work was pushed to; null when nothing was pushed */
  readonly pushedTo: string | null;
  /** true when pushed to `svc-backup/<run>/<commit>` because origin's run branch had moved on */
  readonly backup: boolean;
  /** true when the checkout has no origin: the work is committed on the run's branch, and that is all */
  readonly localOnly?: boolean;
  readonly detail?: string;
}

export const isUnreadable = (f: WorktreeFolder): f is UnreadableWorktreeFolder => 'detail' in f;
