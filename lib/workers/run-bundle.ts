import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { TurnResult } from '../harness/adapter.js';
import type { Pending } from './dispatch-port.js';
import type { SessionStore } from './session-files.js';
import { dirname, join } from 'node:path';
import { git, gitOk } from '../git/git.js';
import { restoreSnapshot, takeSnapshot } from '../git/snapshot.js';
import { isOrigin } from './remote-messages.js';

// The code of a dispatched step moves as git bundles (docs/workers.md, "What moves"). The hub
// snapshots the run folder as the step starts (the folder may hold work no commit has); a bundle of
// that snapshot (its first parent is the branch's commit) goes to the worker, whole or only what is
// new since the commits the worker says it has; the worker makes a repository at the same path from
// it. At the turn's end the worker bundles only what is new since the dispatch snapshot: a mark
// commit whose parents are a snapshot of the folder as the agent left it and the branch's commit
// (a bundle leaves out a ref the hub already has, so the branch rides as a parent, never a ref).
// The hub puts that into its own run folder and the step-end logic runs there as for a local step.

export const GUARD = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];
export const dispatchRef = (stepId: string): string => `refs/svc/dispatch/${stepId}`;
export const resultRef = (stepId: string): string => `refs/svc/result/${stepId}`;
export const branchOf = (runId: string): string => `refs/heads/svc/${runId}`;
const IDENTITY = { GIT_AUTHOR_NAME: 'svc', GIT_AUTHOR_EMAIL: 'svc@localhost', GIT_COMMITTER_NAME: 'svc', GIT_COMMITTER_EMAIL: 'svc@localhost' };

const bundle = async (dir: string, file: string, revs: readonly string[]): Promise<void> => {
  await gitOk(dir, [...GUARD, 'bundle', 'create', '-q', file, ...revs]);
};

/**
 * hub: whose branch the run folder holds: the run's own, or for a follow-up (which shares the
 * run it continues' folder) that run's
 */
export const branchRunOf = async (cwd: string, runId: string): Promise<string> => {
  const head = (await gitOk(cwd, ['symbolic-ref', '-q', 'HEAD']).catch(() => '')).trim();
  return head.startsWith('refs/heads/svc/') ? head.slice('refs/heads/svc/'.length) : runId;
};

/** hub: the run folder as the step starts, kept under the step's dispatch ref until its work is applied */
export const snapshotForDispatch = async (cwd: string, stepId: string): Promise<string> => takeSnapshot(cwd, dispatchRef(stepId));

/** hub, taking up a dispatched step after a restart: whether the snapshot made at the dispatch is still there */
export const dispatchKept = async (cwd: string, stepId: string): Promise<boolean> =>
  (await git(cwd, ['rev-parse', '-q', '--verify', `${dispatchRef(stepId)}^{commit}`])).code === 0;

/**
 * hub: which history the run folder holds, named by its oldest root commit: the worker keeps one
 * object cache per history (a project's runs share it, whatever their branch)
 */
export const historyOf = async (cwd: string, stepId: string): Promise<string | undefined> => {
  const roots = (await git(cwd, ['rev-list', '--max-parents=0', dispatchRef(stepId)])).stdout.split('\n').filter(Boolean).sort();
  return roots[0];
};

/**
 * hub: where a worker with nothing of the history may fetch the project's base itself: the run
 * folder's origin (the person's, as the run's repository copied it), when it names no user or
 * secret (those stay on the hub) and is a form a worker may fetch (lib/workers/remote-messages.ts)
 */
export const originOf = async (cwd: string): Promise<string | undefined> => {
  const url = (await git(cwd, ['config', '--get', 'remote.origin.url'])).stdout.trim();
  return url !== '' && isOrigin(url) ? url : undefined;
};

/**
 * hub: the dispatch bundle for a worker that has the commits `have` (its cache's tips): only what
 * is new since those the hub has too; whole when it names none the hub has (or the thin bundle
 * cannot be made). `kept`: how many of its commits the bundle is cut at.
 */
export const bundleForWorker = async (cwd: string, stepId: string, file: string, have: readonly string[]): Promise<{ thin: boolean; kept: number }> => {
  const snapshot = (await gitOk(cwd, ['rev-parse', dispatchRef(stepId)])).trim();
  // the commits the hub has too, in one look (a name that is not a commit here answers none); the
  // snapshot itself is never cut at: a bundle of nothing cannot be made (a redelivery to a worker that has it)
  const here = have.length > 0 ? await git(cwd, ['rev-list', '--no-walk', '--ignore-missing', ...have]) : null;
  const has = new Set(here?.code === 0 ? here.stdout.split('\n') : []);
  const known = have.filter((c) => c !== snapshot && has.has(c));
  if (known.length > 0) {
    const made = await bundle(cwd, file, [dispatchRef(stepId), '--not', ...known]).then(() => true, () => false);
    if (made) return { thin: true, kept: known.length };
  }
  await bundle(cwd, file, [dispatchRef(stepId)]);
  return { thin: false, kept: 0 };
};

/** hub: the dispatch snapshot and its whole bundle (what a worker with nothing of the history gets) */
export const bundleForDispatch = async (cwd: string, stepId: string, file: string): Promise<string> => {
  const snapshot = await snapshotForDispatch(cwd, stepId);
  await bundleForWorker(cwd, stepId, file, []);
  return snapshot;
};

/** worker: the run folder from the dispatch snapshot now under `from` in `repo`: the branch at its first parent, the files as it holds them */
export const checkOutDispatch = async (cwd: string, runId: string, stepId: string, repo: string, from: string): Promise<void> => {
  await gitOk(cwd, [...GUARD, 'fetch', '-q', '--no-tags', '--no-write-fetch-head', repo, `+${from}:${dispatchRef(stepId)}`]);
  await gitOk(cwd, ['update-ref', branchOf(runId), `${dispatchRef(stepId)}^1`]);
  await gitOk(cwd, ['symbolic-ref', 'HEAD', branchOf(runId)]);
  await gitOk(cwd, [...GUARD, 'reset', '-q', '--hard']);
  await restoreSnapshot(dispatchRef(stepId), cwd);
};

/** worker: the run folder at `cwd` (the hub's path), made afresh from a whole dispatch bundle */
export const folderFromBundle = async (cwd: string, runId: string, stepId: string, file: string): Promise<void> => {
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(dirname(cwd), { recursive: true });
  await gitOk(dirname(cwd), ['init', '-q', '--template=', cwd]);
  await checkOutDispatch(cwd, runId, stepId, file, dispatchRef(stepId));
};

/** worker: the turn's work, bundled: only what is new since the dispatch snapshot (the hub has that) */
export const bundleResult = async (cwd: string, runId: string, stepId: string, file: string): Promise<void> => {
  const snapshot = await takeSnapshot(cwd, `${resultRef(stepId)}-folder`);
  const branch = (await gitOk(cwd, ['rev-parse', '--verify', `${branchOf(runId)}^{commit}`])).trim();
  const tree = (await gitOk(cwd, ['rev-parse', `${snapshot}^{tree}`])).trim();
  const mark = (await gitOk(cwd, ['commit-tree', tree, '-p', snapshot, '-p', branch, '-m', 'svc result: the folder, the branch'], { env: IDENTITY })).trim();
  await gitOk(cwd, ['update-ref', resultRef(stepId), mark]);
  await gitOk(cwd, ['update-ref', '-d', `${resultRef(stepId)}-folder`]);
  await bundle(cwd, file, [resultRef(stepId), '--not', dispatchRef(stepId)]);
};

/**
 * hub: the worker's work into the hub's run folder (the bundle verified against the dispatch
 * snapshot it was cut at): its branch moves to the worker's (only if it is still where the
 * dispatch left it), and the folder becomes the worker's folder, files it no longer has removed.
 */
export const applyResult = async (cwd: string, runId: string, stepId: string, file: string): Promise<void> => {
  const got = `refs/svc/remote/${stepId}`;
  await gitOk(cwd, [...GUARD, 'bundle', 'verify', '-q', file]);
  await gitOk(cwd, [...GUARD, 'fetch', '-q', '--no-tags', '--no-write-fetch-head', file, `+${resultRef(stepId)}:${got}`]);
  const before = (await gitOk(cwd, ['rev-parse', `${dispatchRef(stepId)}^1`])).trim();
  const after = (await gitOk(cwd, ['rev-parse', `${got}^2`])).trim();
  const gone = await gitOk(cwd, ['diff', '--name-only', '-z', '--no-renames', '--diff-filter=D', dispatchRef(stepId), `${got}^1`]);
  for (const path of gone.split('\0').filter(Boolean)) rmSync(join(cwd, path), { force: true });
  // applied once already by a hub killed before it recorded so: the branch is where it goes
  const now = (await gitOk(cwd, ['rev-parse', branchOf(runId)])).trim();
  if (now !== after) await gitOk(cwd, [...GUARD, 'update-ref', branchOf(runId), after, before]);
  await restoreSnapshot(`${got}^1`, cwd);
  // the dispatch's ref stays until the result is recorded (dropDispatchRef): a restarted hub bundles from it again,
  // and applies the result again (the bundle is cut at it)
  await gitOk(cwd, ['update-ref', '-d', got]);
};

/** hub: the dispatch's snapshot ref, once the step's result is recorded */
export const dropDispatchRef = async (cwd: string, stepId: string): Promise<void> => {
  await gitOk(cwd, ['update-ref', '-d', dispatchRef(stepId)]);
};

/** hub: the worker's result with its work (`chunks` parts) applied to the run folder; the turn's result, or why the work could not land */
export const workApplied = async (dir: string, p: Pending, chunks: number, r: TurnResult): Promise<TurnResult> => {
  const { stepId, runId, cwd } = p.input;
  // a turn that could not run there sends no work: its result is all there is
  if (chunks === 0) return r;
  const parts = Array.from({ length: chunks }, (_, n) => p.parts.get(n));
  if (parts.some((x) => x === undefined)) return { outcome: 'failure', summary: 'the worker\'s work did not arrive whole', failure: 'error' };
  const file = join(dir, `${stepId}.result.bundle`);
  writeFileSync(file, Buffer.concat(parts.map((x) => Buffer.from(x!, 'base64'))));
  p.input.onLog({ text: `[hub] the worker's work came back as a bundle of ${statSync(file).size} bytes (what is new since the step's start)` });
  try {
    await applyResult(cwd, p.job.branchRun ?? runId, stepId, file);
    return r;
  } catch (e) {
    return { outcome: 'failure', summary: `the worker's work could not be applied: ${String(e)}`, failure: 'error' };
  } finally {
    rmSync(file, { force: true });
  }
};

/** hub: the session's files as the worker's turn left them (in parts), kept for the next step that resumes it */
export const keepSession = (p: Pending, chunks: number, sessionId: string | undefined, sessions: SessionStore): void => {
  const parts = Array.from({ length: chunks }, (_, n) => p.sessionParts.get(n));
  if (!sessionId || chunks === 0 || parts.some((x) => x === undefined)) return;
  sessions.put(p.harness, sessionId, Buffer.concat(parts.map((x) => Buffer.from(x!, 'base64'))));
};
