import * as E from 'fp-ts/lib/Either.js';
import { gitReason, NO_HOOKS, type GitResult } from './git.js';
import { checkoutGit, errorText, headBranch, unreadableReason } from './checkout-git.js';
import type { RunCheckout, SecuredFolder } from './types.js';
import { runBranchName } from './worktrees.js';
import { publishRun } from './run-clones.js';

// `secure_run_work`: commit whatever a run has not committed, on the run's own branch, and put it
// on origin — without ever forcing, without the repository's hooks, and without taking over a
// run branch on origin that someone else moved on (that work goes to a backup branch instead).

const PUSH_TIMEOUT_MS = 120_000;

export const secureCommitMessage = (runId: string): string => `svc: secure work of run ${runId}`;

/** Where work goes when origin's run branch holds commits the checkout lacks. */
export const backupBranchName = (runId: string, shortCommit: string): string => `svc-backup/${runId}/${shortCommit}`;

// Every checkout git can read must be on the run's branch, checked before anything is
// done. A folder git cannot read is not "on another branch": it fails alone, with its reason.
const refusal = async (runId: string, checkouts: readonly RunCheckout[]): Promise<string | null> => {
  const branch = runBranchName(runId);
  const strays: string[] = [];
  for (const c of checkouts) {
    if (await unreadableReason(c.directory)) continue;
    const head = await headBranch(c.directory);
    if (head !== branch) strays.push(`folder "${c.folder}" is on ${head === null ? 'a detached HEAD' : `branch ${head}`}`);
  }
  if (strays.length === 0) return null;
  return `refused: every checkout must be on the run's branch ${branch}, but ${strays.join(', ')}; nothing was committed or pushed`;
};

// An identity only where the user has none, so their own name stays on commits when they have one.
const identityArgs = async (dir: string): Promise<string[]> => {
  const has = async (key: string) => (await checkoutGit(dir, ['config', key])).stdout.trim() !== '';
  return [...((await has('user.name')) ? [] : ['-c', 'user.name=svc']), ...((await has('user.email')) ? [] : ['-c', 'user.email=svc@localhost'])];
};

const run = async (dir: string, args: readonly string[], timeoutMs?: number): Promise<string> => {
  const r = await checkoutGit(dir, args, { timeoutMs });
  if (r.code !== 0) throw new Error(gitReason(r));
  return r.stdout.trim();
};

// Everything, untracked files included, in one commit. No signing: a
// passphrase prompt would stall an unattended call. Returns null when nothing was uncommitted.
export const commitAll = async (dir: string, runId: string): Promise<string | null> => {
  const conflicted = await run(dir, ['diff', '--name-only', '--diff-filter=U']);
  if (conflicted !== '') throw new Error('unresolved merge conflicts; resolve them before securing (conflict markers are not committed)');
  await run(dir, [...NO_HOOKS, 'add', '--all']);
  const nothingStaged = (await checkoutGit(dir, ['diff', '--cached', '--quiet'])).code === 0;
  if (nothingStaged) return null;
  const who = await identityArgs(dir);
  await run(dir, [...NO_HOOKS, ...who, 'commit', '--no-verify', '--no-gpg-sign', '--quiet', '-m', secureCommitMessage(runId)]);
  return run(dir, ['rev-parse', 'HEAD']);
};

// Does origin's run branch hold commits the checkout lacks? Fetches that one branch to know.
const originAhead = async (dir: string, branch: string): Promise<boolean> => {
  const remote = await checkoutGit(dir, ['ls-remote', '--exit-code', 'origin', `refs/heads/${branch}`], { timeoutMs: PUSH_TIMEOUT_MS });
  if (remote.code === 2) return false; // origin has no such branch yet
  if (remote.code !== 0) throw new Error(`cannot read origin: ${gitReason(remote)}`);
  const tip = remote.stdout.trim().split(/\s+/)[0] ?? '';
  await run(dir, [...NO_HOOKS, 'fetch', '--no-tags', 'origin', `refs/heads/${branch}`], PUSH_TIMEOUT_MS);
  const isAncestor = await checkoutGit(dir, ['merge-base', '--is-ancestor', tip, 'HEAD']);
  if (isAncestor.code > 1) throw new Error(`cannot compare with origin: ${gitReason(isAncestor)}`);
  return isAncestor.code === 1;
};

// A plain refspec, no '+', no --force: origin refuses anything but a fast-forward.
const push = (dir: string, target: string) =>
  checkoutGit(dir, [...NO_HOOKS, 'push', '--no-verify', '--porcelain', 'origin', `HEAD:refs/heads/${target}`], { timeoutMs: PUSH_TIMEOUT_MS });

// With --porcelain, why a ref was refused ("[rejected] (fetch first)", "[remote rejected]
// (pre-receive hook declined)") is on stdout; stderr has only the remote's own words.
const pushReason = (r: GitResult): string => {
  const refused = r.stdout.split('\n').filter((l) => l.startsWith('!')).map((l) => l.split('\t').pop() ?? '');
  return [...refused, gitReason(r)].filter((s) => s !== '').join('; ');
};

const pushWork = async (dir: string, runId: string, branch: string): Promise<{ pushedTo: string; backup: boolean }> => {
  const backupTarget = async () => backupBranchName(runId, await run(dir, ['rev-parse', '--short', 'HEAD']));
  if (!(await originAhead(dir, branch))) {
    const pushed = await push(dir, branch);
    if (pushed.code === 0) return { pushedTo: branch, backup: false };
    // Origin moved on between our look and our push: same answer as if we had seen it.
    if (!/\[rejected\]|non-fast-forward|fetch first/.test(pushed.stdout + pushed.stderr)) throw new Error(`push to ${branch} failed: ${pushReason(pushed)}`);
  }
  const target = await backupTarget();
  const pushed = await push(dir, target);
  if (pushed.code !== 0) throw new Error(`push to ${target} failed: ${pushReason(pushed)}`);
  return { pushedTo: target, backup: true };
};

const secureOne = async (runId: string, c: RunCheckout): Promise<SecuredFolder> => {
  const branch = runBranchName(runId);
  const none = { folder: c.folder, branch, commit: null, pushedTo: null, backup: false };
  const unreadable = await unreadableReason(c.directory);
  if (unreadable) return { ...none, detail: unreadable };
  let commit: string | null;
  try {
    commit = await commitAll(c.directory, runId);
  } catch (e) {
    return { ...none, detail: `could not commit: ${errorText(e)}` };
  }
  // a run's own repository: the secured branch shows in the user's repository as well
  const unpublished = !c.clone ? '' : await publishRun(c.path, c.directory, runId, branch).then(() => '', (e: unknown) => `; ${errorText(e)}`);
  const origin = await checkoutGit(c.directory, ['remote', 'get-url', 'origin']);
  // no origin is no failure: committing on the run's branch is all there is to do
  if (origin.code !== 0) return { ...none, commit, localOnly: true, ...(unpublished ? { detail: `no origin remote; the work is committed on ${branch} locally only${unpublished}` } : {}) };
  try {
    return { ...none, commit, ...(await pushWork(c.directory, runId, branch)) };
  } catch (e) {
    return { ...none, commit, detail: errorText(e) };
  }
};

/**
 * Secures every checkout of a run (see the five rules above each step). Left: the call was
 * refused before any action, or no folder was secured; Right: one entry per checkout, in order.
 */
export const secureRunWork = async (runId: string, checkouts: readonly RunCheckout[]): Promise<E.Either<string, SecuredFolder[]>> => {
  if (checkouts.length === 0) return E.left(`run ${runId} has no checkouts to secure`);
  const refused = await refusal(runId, checkouts);
  if (refused) return E.left(refused);
  const folders: SecuredFolder[] = [];
  for (const c of checkouts) folders.push(await secureOne(runId, c));
  const failed = folders.filter((f) => f.detail !== undefined);
  if (failed.length === folders.length) {
    return E.left(`no folder of run ${runId} was secured: ${failed.map((f) => `${f.folder}: ${f.detail}`).join('; ')}`);
  }
  return E.right(folders);
};
