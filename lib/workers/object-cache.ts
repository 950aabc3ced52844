import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensurePrivateDir, svcHome } from '../paths.js';
import { git, gitOk } from '../git/git.js';
import { checkOutDispatch, dispatchRef, folderFromBundle, GUARD, resultRef } from './run-bundle.js';
import type { Job } from './remote-messages.js';

// A worker's object cache (docs/workers.md, "What moves"): one bare repository per history (a
// project's runs share it) under its own svc home, owner-only, into which every bundle it receives
// or sends is fetched. Its newest tips are what the worker tells the hub it has, so the hub sends
// only what is new since them; the run folder is made from the cache plus that small bundle. The
// cache is a saving, never a need: anything it cannot do falls back to the whole bundle.

/** how many of its tips a worker names (the newest): enough for the last few steps of the runs in flight, each step keeping four */
export const MAX_TIPS = 32;
const TIPS = 'refs/tips';

export const cacheDir = (history: string): string => join(svcHome(), 'worker', 'objects', `${history}.git`);

/** the cache for `history`, made when missing */
export const openCache = async (history: string): Promise<string> => {
  const dir = cacheDir(history);
  ensurePrivateDir(dirname(dir));
  // one that is not a repository any more (emptied by hand) is made afresh
  if (!existsSync(join(dir, 'HEAD')) || !existsSync(join(dir, 'objects'))) {
    rmSync(dir, { recursive: true, force: true });
    await gitOk(dirname(dir), ['init', '-q', '--bare', '--template=', dir]);
    // steps in several slots fetch into it at once: no background gc under them
    await gitOk(dir, ['config', 'gc.auto', '0']);
  }
  ensurePrivateDir(dir);
  return dir;
};

// tips are named by when they came, newest last in name order: their listing needs no object read
const tipName = (stepId: string, what: 'in' | 'out'): string => `${TIPS}/${String(Date.now()).padStart(15, '0')}-${stepId}-${what}`;

/** the commits the cache has (its newest tips), none when it cannot say */
export const cacheTips = async (cache: string): Promise<string[]> => {
  const r = await git(cache, ['for-each-ref', '--sort=-refname', `--count=${MAX_TIPS}`, '--format=%(objectname)', `${TIPS}/`]);
  return r.code === 0 ? r.stdout.split('\n').filter(Boolean) : [];
};

/** whether the cache has everything the bundle is cut at (`git bundle verify`) */
export const cacheTakes = async (cache: string, file: string): Promise<boolean> =>
  (await git(cache, [...GUARD, 'bundle', 'verify', '-q', file])).code === 0;

// the oldest tips go (their objects stay until a gc): the newest are all a worker names
const prune = async (cache: string): Promise<void> => {
  const refs = (await git(cache, ['for-each-ref', '--sort=-refname', '--format=%(refname)', `${TIPS}/`])).stdout.split('\n').filter(Boolean);
  for (const ref of refs.slice(MAX_TIPS)) await git(cache, ['update-ref', '-d', ref]);
};

/** the bundle's one ref into the cache as a tip; its name there */
export const keepInCache = async (cache: string, file: string, ref: string, stepId: string, what: 'in' | 'out'): Promise<string> => {
  const tip = tipName(stepId, what);
  await gitOk(cache, [...GUARD, 'fetch', '-q', '--no-tags', '--no-write-fetch-head', file, `+${ref}:${tip}`]);
  // its branch commit too: a snapshot is this run folder's own, but another run of the project may
  // start where this branch was (the hub's run folders share the project's commits, not each other's snapshots)
  await gitOk(cache, ['update-ref', `${tip}-base`, `${tip}^${what === 'in' ? 1 : 2}`]);
  await prune(cache);
  return tip;
};

/** worker: the run folder at `cwd` (the hub's path), made afresh from the cache, which holds the dispatch snapshot as `tip` */
export const folderFromCache = async (cache: string, cwd: string, runId: string, stepId: string, tip: string): Promise<void> => {
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(dirname(cwd), { recursive: true });
  // a clone from a path links the cache's object files (no pack is made), or copies them where a
  // link cannot be made (another file system or mount); it takes no ref (tips are not branches)
  await gitOk(dirname(cwd), [...GUARD, 'clone', '-q', '--no-checkout', '--template=', cache, cwd]);
  await gitOk(cwd, ['remote', 'remove', 'origin']);
  await checkOutDispatch(cwd, runId, stepId, cache, tip);
};

// Steps in several slots of one worker use one project's cache at once: one making it while
// another finds it half made (no HEAD yet) removed it under the first, whose step then failed. So
// what one step does to a cache (make it, fetch into it, clone from it, make it afresh) waits for
// what another step is doing to the same cache.
const busy = new Map<string, Promise<unknown>>();

/** `work` on the cache of `history` once the work before it there has ended, passed or failed */
const inTurn = <T>(history: string, work: () => Promise<T>): Promise<T> => {
  const next = (busy.get(history) ?? Promise.resolve()).then(work, work);
  const settled = next.catch(() => undefined);
  busy.set(history, settled);
  void settled.then(() => { if (busy.get(history) === settled) busy.delete(history); });
  return next;
};

/**
 * Every bundle fetched in leaves loose objects or a pack of its own, and old tips' objects stay:
 * after a few hundred steps every object lookup there walks hundreds of packs. git's own
 * housekeeping, when its thresholds say so (`gc --auto`: 6,700 loose objects or 50 packs), in the
 * cache's turn, so no step fetches or clones under it (the cache's own gc.auto is 0 for that). A
 * run folder cloned from the cache holds links to the pack files it was made from, which a repack
 * leaves to it; objects no tip reaches go after git's two weeks.
 */
const tidy = (cache: string): Promise<unknown> =>
  git(cache, [...GUARD, '-c', 'gc.auto=6700', '-c', 'gc.autoPackLimit=50', '-c', 'gc.autoDetach=false', 'gc', '--auto', '--quiet'], { timeoutMs: 600_000 });

/**
 * worker: the turn's result bundle into the cache too (the next dispatch is cut at it); a cache
 * that cannot take it is left as it is. The cache's housekeeping follows in its turn; the turn's
 * result does not wait for it, the next step on the cache does.
 */
export const keepResult = async (cache: string | null, file: string, stepId: string): Promise<void> => {
  if (!cache) return;
  // the fetch checks the bundle's prerequisites (the dispatch snapshot) as `git bundle verify` does
  await inTurn(cache, () => keepInCache(cache, file, resultRef(stepId), stepId, 'out')).catch(() => undefined);
  void inTurn(cache, () => tidy(cache)).catch(() => undefined);
};

/**
 * worker, its cache empty: the project's base from the project's origin, when this machine can
 * reach it (its own credentials, never a prompt; only the usual transports), so the first bundle
 * from the hub holds only what the origin lacks. Its tip, or none.
 */
const baseFromOrigin = async (cache: string, origin: string, stepId: string, note: (text: string) => void): Promise<string[]> => {
  const tip = `${TIPS}/${String(Date.now()).padStart(15, '0')}-${stepId}-origin`;
  const transports = ['-c', 'protocol.allow=never', ...['https', 'http', 'ssh', 'git', 'file'].flatMap((p) => ['-c', `protocol.${p}.allow=always`])];
  const env = { GIT_SSH_COMMAND: process.env['GIT_SSH_COMMAND'] ?? 'ssh -o BatchMode=yes' };
  const r = await git(cache, [...GUARD, ...transports, 'fetch', '-q', '--no-tags', '--no-write-fetch-head', origin, `+HEAD:${tip}`], { env, timeoutMs: 300_000 });
  if (r.code !== 0) {
    note(`the project's origin could not be fetched here (${r.stderr.trim().split('\n').pop() ?? ''}): the whole bundle from the hub`);
    return [];
  }
  note('fetched the project\'s base from its origin: the hub sends only what the origin lacks');
  return [(await gitOk(cache, ['rev-parse', tip])).trim()];
};

/**
 * worker: the run folder for the job: from the cache and a bundle of only what the cache lacks,
 * or (no history named, a cache that cannot take the small bundle, any trouble with the cache)
 * from the whole bundle. `fetch`: the dispatch bundle from the hub, cut at `have` when given.
 * The cache it used, if any (the result goes into it too).
 */
export const folderForJob = async (job: Job, fetch: (have?: readonly string[]) => Promise<Buffer>, file: string, note: (text: string) => void): Promise<string | null> => {
  const { stepId, cwd } = job;
  const runId = job.branchRun ?? job.runId;
  const history = job.history;
  if (history) {
    const made = await inTurn(cacheDir(history), () => folderThroughCache(job, history, fetch, file, note));
    if (made === 'made') return cacheDir(history);
    // 'whole': the whole bundle is in `file` already
    if (made === 'none') writeFileSync(file, await fetch());
  } else {
    writeFileSync(file, await fetch());
  }
  await folderFromBundle(cwd, runId, stepId, file);
  return null;
};

/**
 * the run folder from the cache, which is this step's alone meanwhile: 'made'; or not, with the
 * whole bundle in `file` ('whole'), or without (no cache could be opened, or only a small bundle came: 'none')
 */
const folderThroughCache = async (job: Job, history: string, fetch: (have?: readonly string[]) => Promise<Buffer>, file: string, note: (text: string) => void): Promise<'made' | 'whole' | 'none'> => {
  const { stepId, cwd } = job;
  const cache = await openCache(history).catch(() => null);
  if (!cache) return 'none';
  const have = await cacheTips(cache);
  if (have.length === 0 && job.origin) have.push(...(await baseFromOrigin(cache, job.origin, stepId, note)));
  writeFileSync(file, await fetch(have.length > 0 ? have : undefined));
  let whole = have.length === 0;
  // the cache lacks what the bundle is cut at (it was emptied meanwhile, an object is gone): the
  // whole bundle, into the cache made afresh (a tip whose objects are gone breaks every fetch there)
  if (!whole && !(await cacheTakes(cache, file))) {
    note('this machine\'s object cache lacks what the bundle was cut at: the whole bundle, into the cache made afresh');
    writeFileSync(file, await fetch());
    whole = true;
    rmSync(cache, { recursive: true, force: true });
    await openCache(history);
  }
  const made = await keepInCache(cache, file, dispatchRef(stepId), stepId, 'in')
    .then((tip) => folderFromCache(cache, cwd, job.branchRun ?? job.runId, stepId, tip)).then(() => true, (e: unknown) => {
      note(`the run folder could not be made from this machine's object cache (${String(e)}): from the whole bundle`);
      return false;
    });
  return made ? 'made' : whole ? 'whole' : 'none';
};
