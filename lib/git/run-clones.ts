import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { ensurePrivateDir } from '../paths.js';
import { git, gitOk, gitReason, NO_HOOKS } from './git.js';
import type { RunCheckout } from './types.js';

// A run's own repository per project folder (docs/run-folders.md): a clone that borrows the user's
// objects (objects/info/alternates, as `git clone --shared` does) and holds its own refs, hooks and
// config, so nothing done inside it can move the user's branches or write their hooks. svc, never
// the agent, moves work across: publishRun fetches the run's refs into the user's repository,
// refreshBase fetches a base branch into the clone. Both fetch with hooks off.

/** the clone's mark in its own config: which run made it (a half-made clone has none) */
const MARK = 'svc.run';

// upload-pack runs in the repository fetched FROM: with the clone as source, its config is the
// agent's, so the fetch names a plain upload-pack with hooks and fsmonitor off.
const UPLOAD_PACK = 'git -c core.hooksPath=/dev/null -c core.fsmonitor=false upload-pack';

// The user's origin as configured (insteadOf rules apply when git uses it, as they do for the
// user), with a relative path made the user's; a push URL of its own comes along.
const absolute = (repo: string, url: string): string =>
  !isAbsolute(url) && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url) && !/^[^/]+:/.test(url) ? resolve(repo, url) : url;

// The user's settings the clone takes, read in one git call (repository, global and system
// config, as git itself resolves them): the last value of each key wins, as for `git config KEY`.
const COPIED = /^(remote\.origin\.(url|pushurl)|user\.(name|email))$/;
const copiedConfig = async (repo: string): Promise<Map<string, string>> => {
  const out = (await git(repo, ['config', '-z', '--get-regexp', COPIED.source])).stdout;
  const found = new Map<string, string>();
  for (const entry of out.split('\0').filter(Boolean)) {
    const cut = entry.indexOf('\n');
    if (cut > 0) found.set(entry.slice(0, cut).toLowerCase(), entry.slice(cut + 1));
  }
  return found;
};

const copyOrigin = async (repo: string, clone: string, config: Map<string, string>): Promise<void> => {
  const url = config.get('remote.origin.url')?.trim() ?? '';
  if (url === '') return;
  await gitOk(clone, ['remote', 'add', 'origin', absolute(repo, url)]);
  const push = config.get('remote.origin.pushurl')?.trim() ?? '';
  if (push !== '') await gitOk(clone, ['config', 'remote.origin.pushurl', absolute(repo, push)]);
};

// The user's name and email (repository or global) so the agent's commits carry them, as they did
// in a linked worktree that shared the user's config.
const copyIdentity = async (clone: string, config: Map<string, string>): Promise<void> => {
  for (const key of ['user.name', 'user.email']) {
    const v = config.get(key)?.trim() ?? '';
    if (v !== '') await gitOk(clone, ['config', key, v]);
  }
};

// A fetch copies `origin/HEAD` as a plain ref: make it name its branch again, as the user's does.
const copySymrefs = async (repo: string, clone: string): Promise<void> => {
  const out = await gitOk(repo, ['for-each-ref', '--format=%(refname) %(symref)', 'refs/remotes/']);
  for (const [ref, target] of out.split('\n').map((l) => l.split(' '))) {
    if (ref && target) await gitOk(clone, [...NO_HOOKS, 'symbolic-ref', ref, target]);
  }
};

/**
 * The objects folder a run's repository borrows from the person's repository at `repo`, read from
 * the person's side (the run's own alternates file is the agent's to rewrite, so never trusted).
 */
export const borrowedObjects = (repo: string): string => {
  const dotGit = join(repo, '.git');
  if (!existsSync(dotGit) || statSync(dotGit).isDirectory()) return join(dotGit, 'objects');
  const gitdir = resolve(repo, /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim() ?? '.git');
  const commondir = join(gitdir, 'commondir');
  return join(existsSync(commondir) ? resolve(gitdir, readFileSync(commondir, 'utf8').trim()) : gitdir, 'objects');
};

const isOurs = async (dir: string, runId: string): Promise<boolean> =>
  existsSync(join(dir, '.git')) && (await git(dir, ['config', '--local', MARK])).stdout.trim() === runId;

// Made in a sibling folder and renamed into place, so `dir` is either a whole clone or absent.
const make = async (repo: string, dir: string, branch: string, runId: string): Promise<void> => {
  const temp = join(dirname(dir), `.${basename(dir)}.making`);
  rmSync(temp, { recursive: true, force: true });
  ensurePrivateDir(temp);
  // --template= : no sample hooks, nothing of the user's init.templateDir
  // HEAD names the run's branch from the start (filled by the fetch below)
  await gitOk(temp, ['init', '--quiet', '--template=', `--initial-branch=${branch}`]);
  writeFileSync(join(temp, '.git', 'objects', 'info', 'alternates'), `${borrowedObjects(repo)}\n`, { flag: 'w' });
  // The user's branches, remote-tracking refs and tags under the same names, so `main`,
  // `origin/main` and every tag mean in the clone what they mean in the user's repository.
  const fetched = await git(temp, [...NO_HOOKS, 'fetch', '--quiet', '--no-tags', '--update-head-ok', '--no-write-fetch-head', repo,
    '+refs/heads/*:refs/heads/*', '+refs/remotes/*:refs/remotes/*', '+refs/tags/*:refs/tags/*']);
  if (fetched.code !== 0) throw new Error(`could not fill the run's repository from ${repo}: ${gitReason(fetched)}`);
  await copySymrefs(repo, temp);
  await gitOk(temp, [...NO_HOOKS, 'reset', '--hard', '--quiet']);
  const config = await copiedConfig(repo);
  await copyOrigin(repo, temp, config);
  await copyIdentity(temp, config);
  await gitOk(temp, ['config', MARK, runId]);
  renameSync(temp, dir);
};

/**
 * The run's repository at `dir` on `branch`, which must already exist in the user's repository
 * `repo`. Reused when a previous call (before a crash) made it whole.
 */
export const ensureClone = async (repo: string, dir: string, branch: string, runId: string): Promise<void> => {
  if (await isOurs(dir, runId)) return;
  if (existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  if (existsSync(dir)) throw new Error(`${dir} exists and is not this run's repository; move it away to start this run`);
  await make(repo, dir, branch, runId);
  ensurePrivateDir(dir);
};

/** the refs of a run that live in its repository and must reach the user's */
// (a branch the agent deleted in its repository is left as the user's repository has it)
const runRefspecs = async (clone: string, runId: string, branch: string): Promise<string[]> => [
  ...((await git(clone, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])).code === 0 ? [`+refs/heads/${branch}:refs/heads/${branch}`] : []),
  `+refs/svc/snapshots/${runId}/*:refs/svc/snapshots/${runId}/*`,
  `+refs/svc/kept/${runId}/*:refs/svc/kept/${runId}/*`,
];

/**
 * Fetches the run's branch, snapshot refs and kept refs from its repository into the user's:
 * the moment the user can see the run's work in their own repository (step end, secure, before a
 * local merge, before the clone goes). Only those refs are written, hooks off.
 */
export const publishRun = async (repo: string, clone: string, runId: string, branch: string): Promise<void> => {
  const r = await git(repo, [...NO_HOOKS, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--upload-pack', UPLOAD_PACK, clone, ...(await runRefspecs(clone, runId, branch))]);
  if (r.code !== 0) throw new Error(`could not bring run ${runId}'s refs into ${repo}: ${gitReason(r)}`);
};

/** Only the run's branch of one checkout into the user's repository (before a local merge). */
export const publishBranch = async (c: RunCheckout): Promise<void> => {
  if (!existsSync(c.directory)) return;
  const r = await git(c.path, [...NO_HOOKS, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--upload-pack', UPLOAD_PACK, c.directory, `+refs/heads/${c.branch}:refs/heads/${c.branch}`]);
  if (r.code !== 0) throw new Error(`could not bring ${c.branch} from the run's repository into ${c.path}: ${gitReason(r)}`);
};

/** Brings the user's branch `base` as it is now into the run's repository (before an update from base). */
export const refreshBase = async (repo: string, clone: string, base: string): Promise<void> => {
  const r = await git(clone, [...NO_HOOKS, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', repo, `+refs/heads/${base}:refs/heads/${base}`]);
  if (r.code !== 0) throw new Error(`could not bring ${base} from ${repo} into the run's repository: ${gitReason(r)}`);
};

/** Removes the run's repository after publishing what it holds; a folder git cannot read is just removed. */
export const removeClone = async (repo: string, clone: string, runId: string, branch: string): Promise<void> => {
  const readable = existsSync(clone) && (await git(clone, ['rev-parse', '--git-dir'], { env: { GIT_CEILING_DIRECTORIES: dirname(clone) } })).code === 0;
  if (readable && existsSync(repo)) await publishRun(repo, clone, runId, branch);
  rmSync(clone, { recursive: true, force: true });
  rmSync(join(dirname(clone), `.${basename(clone)}.making`), { recursive: true, force: true });
};

/** publishRun for each of a run's checkouts that is its own repository (a linked worktree shares the refs already) */
export const publishCheckouts = async (runId: string, checkouts: readonly RunCheckout[]): Promise<void> => {
  for (const c of checkouts) if (c.clone && existsSync(c.directory)) await publishRun(c.path, c.directory, runId, c.branch);
};
