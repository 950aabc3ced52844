import { checkoutGit, errorText, unreadableReason } from './checkout-git.js';
import type { RunCheckout, UncommittedCounts, WorktreeFolder } from './types.js';

// `read_run_worktree`: what each of a run's checkouts holds, read only. Nothing here writes,
// not even the index's stat cache (--no-optional-locks), so reading never races the agent.

const parseStatus = (porcelain: string): { head: string | null; uncommitted: UncommittedCounts } => {
  let head: string | null = null;
  let staged = 0, unstaged = 0, untracked = 0, conflicted = 0;
  for (const line of porcelain.split('\n')) {
    if (line.startsWith('# branch.head ')) {
      const name = line.slice('# branch.head '.length);
      head = name === '(detached)' ? null : name;
    } else if (line.startsWith('1 ') || line.startsWith('2 ')) {
      // XY: X is the index against HEAD (staged), Y the work tree against the index (unstaged).
      if (line[2] !== '.') staged++;
      if (line[3] !== '.') unstaged++;
    } else if (line.startsWith('u ')) {
      conflicted++;
    } else if (line.startsWith('? ')) {
      untracked++;
    }
  }
  return { head, uncommitted: { staged, unstaged, untracked, conflicted } };
};

/**
 * The default branch, first that exists:
 * 1. origin's HEAD as this clone knows it (`refs/remotes/origin/HEAD`), compared as origin has it;
 * 2. the branch the user's checkout was on when the run started (`baseBranch`);
 * 3. a local `main`, then a local `master`.
 * With none, defaultBranch is null and commitsAhead counts from the run's base commit.
 * Nothing is fetched: this is a read, and must answer fast and offline.
 */
const defaultBranch = async (c: RunCheckout): Promise<{ name: string | null; ref: string }> => {
  // a run's own repository holds the user's branches as they were when it was made: read the
  // names where they live now, and count against the commit they name (its objects are shared)
  const refsAt = c.clone ? c.path : c.directory;
  const tip = async (ref: string): Promise<string | null> => {
    const r = await checkoutGit(refsAt, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    return r.code === 0 ? r.stdout.trim() : null;
  };
  const originHead = await checkoutGit(refsAt, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  const originRef = originHead.stdout.trim();
  const originTip = originHead.code === 0 ? await tip(originRef) : null;
  if (originTip) return { name: originRef.replace(/^refs\/remotes\/origin\//, ''), ref: originTip };
  const candidates = [c.baseBranch, 'main', 'master'].filter((b): b is string => typeof b === 'string' && b !== '');
  for (const name of candidates) {
    const at = await tip(`refs/heads/${name}`);
    if (at) return { name, ref: at };
  }
  return { name: null, ref: c.base };
};

const readOne = async (c: RunCheckout): Promise<WorktreeFolder> => {
  const known = { folder: c.folder, directory: c.directory, branch: c.branch };
  const unreadable = await unreadableReason(c.directory);
  if (unreadable) return { ...known, detail: unreadable };
  try {
    const status = await checkoutGit(c.directory, ['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '--untracked-files=all']);
    if (status.code !== 0) throw new Error(status.stderr.trim() || 'git status failed');
    const { head, uncommitted } = parseStatus(status.stdout);
    const dflt = await defaultBranch(c);
    const ahead = await checkoutGit(c.directory, ['rev-list', '--count', `${dflt.ref}..HEAD`, '--']);
    if (ahead.code !== 0) throw new Error(ahead.stderr.trim() || 'git rev-list failed');
    return { ...known, head, uncommitted, defaultBranch: dflt.name, commitsAhead: Number.parseInt(ahead.stdout.trim(), 10) };
  } catch (e) {
    return { ...known, detail: `git could not read ${c.directory}: ${errorText(e)}` };
  }
};

/** One entry per checkout, in order; a folder git cannot read carries `detail` instead of counts. */
export const readRunWorktree = (checkouts: readonly RunCheckout[]): Promise<WorktreeFolder[]> =>
  Promise.all(checkouts.map(readOne));
