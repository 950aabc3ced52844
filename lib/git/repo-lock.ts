import { resolve } from 'node:path';

// One git worktree operation at a time per repository, within this process. Git does not guard
// its worktree admin folders against itself: `worktree prune` deletes another `worktree add`'s
// half-made .git/worktrees/<name>, and two adds of the same folder name race for that name; the
// loser fails ("failed to read .git/worktrees/app5/commondir"). Runs of one project start and
// end together (attempts, triggers), so their worktree changes queue here. Each is a few git calls.

const tails = new Map<string, Promise<unknown>>();

export const withRepoLock = async <T>(repo: string, work: () => Promise<T>): Promise<T> => {
  const key = resolve(repo);
  const before = tails.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  const tail = mine.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await mine;
  } finally {
    // the last in line leaves no entry behind
    if (tails.get(key) === tail) tails.delete(key);
  }
};
