import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { TurnResult } from '../harness/adapter.js';
import type { Pending } from './dispatch-port.js';
import type { SessionStore } from './session-files.js';
import { dirname, join } from 'node:path';
import { gitOk } from '../git/git.js';
import { restoreSnapshot, takeSnapshot } from '../git/snapshot.js';

// The code of a dispatched step moves as git bundles (docs/workers.md). The hub bundles the run's
// branch and a snapshot of its folder as the step starts (the folder may hold work no commit has);
// the worker makes a repository at the same path from it; at the turn's end the worker bundles
// the branch and a snapshot of the folder as the agent left it, and the hub puts that into its
// own run folder. The step-end logic then runs on the hub as for a local step.

const GUARD = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];
export const dispatchRef = (stepId: string): string => `refs/svc/dispatch/${stepId}`;
const resultRef = (stepId: string): string => `refs/svc/result/${stepId}`;
const branchOf = (runId: string): string => `refs/heads/svc/${runId}`;

const bundle = async (dir: string, file: string, refs: readonly string[]): Promise<void> => {
  await gitOk(dir, [...GUARD, 'bundle', 'create', '-q', file, ...refs]);
};

/**
 * hub: whose branch the run folder holds: the run's own, or for a follow-up (which shares the
 * run it continues' folder) that run's
 */
export const branchRunOf = async (cwd: string, runId: string): Promise<string> => {
  const head = (await gitOk(cwd, ['symbolic-ref', '-q', 'HEAD']).catch(() => '')).trim();
  return head.startsWith('refs/heads/svc/') ? head.slice('refs/heads/svc/'.length) : runId;
};

/** hub: the bundle a worker makes the run folder from (the branch, and the folder's state as a snapshot) */
export const bundleForDispatch = async (cwd: string, runId: string, stepId: string, file: string): Promise<string> => {
  const snapshot = await takeSnapshot(cwd, dispatchRef(stepId));
  await bundle(cwd, file, [branchOf(runId), dispatchRef(stepId)]);
  return snapshot;
};

/** hub, taking up a dispatched step after a restart: the same bundle again, from the snapshot made at the dispatch */
export const bundleAgain = async (cwd: string, runId: string, stepId: string, file: string): Promise<void> =>
  bundle(cwd, file, [branchOf(runId), dispatchRef(stepId)]);

/** worker: the run folder at `cwd` (the hub's path), made afresh from the dispatch bundle */
export const folderFromBundle = async (cwd: string, runId: string, stepId: string, file: string): Promise<void> => {
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(dirname(cwd), { recursive: true });
  await gitOk(dirname(cwd), ['init', '-q', '--template=', cwd]);
  await gitOk(cwd, [...GUARD, 'fetch', '-q', file, `+${branchOf(runId)}:${branchOf(runId)}`, `+${dispatchRef(stepId)}:${dispatchRef(stepId)}`]);
  await gitOk(cwd, ['symbolic-ref', 'HEAD', branchOf(runId)]);
  await gitOk(cwd, [...GUARD, 'reset', '-q', '--hard']);
  await restoreSnapshot(dispatchRef(stepId), cwd);
};

/** worker: the turn's work, bundled (the branch as the agent left it, and the folder as a snapshot) */
export const bundleResult = async (cwd: string, runId: string, stepId: string, file: string): Promise<void> => {
  await takeSnapshot(cwd, resultRef(stepId));
  await bundle(cwd, file, [branchOf(runId), resultRef(stepId)]);
};

/**
 * hub: the worker's work into the hub's run folder: its branch moves to the worker's (only if it
 * is still where the dispatch left it), and the folder becomes the worker's folder, files the
 * worker's folder no longer has removed.
 */
export const applyResult = async (cwd: string, runId: string, stepId: string, file: string): Promise<void> => {
  const got = `refs/svc/remote/${stepId}`;
  await gitOk(cwd, [...GUARD, 'fetch', '-q', file, `+${resultRef(stepId)}:${got}/result`, `+${branchOf(runId)}:${got}/branch`]);
  const before = (await gitOk(cwd, ['rev-parse', `${dispatchRef(stepId)}^1`])).trim();
  const after = (await gitOk(cwd, ['rev-parse', `${got}/branch`])).trim();
  const gone = await gitOk(cwd, ['diff', '--name-only', '-z', '--no-renames', '--diff-filter=D', dispatchRef(stepId), `${got}/result`]);
  for (const path of gone.split('\0').filter(Boolean)) rmSync(join(cwd, path), { force: true });
  // applied once already by a hub killed before it recorded so: the branch is where it goes
  const now = (await gitOk(cwd, ['rev-parse', branchOf(runId)])).trim();
  if (now !== after) await gitOk(cwd, [...GUARD, 'update-ref', branchOf(runId), after, before]);
  await restoreSnapshot(`${got}/result`, cwd);
  // the dispatch's ref stays until the result is recorded (dropDispatchRef): a restarted hub bundles from it again
  for (const ref of [`${got}/result`, `${got}/branch`]) await gitOk(cwd, ['update-ref', '-d', ref]);
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
