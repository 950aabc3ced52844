import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnResult } from '../harness/adapter.js';
import type { Pending } from './dispatch-port.js';
import { asResult, type Out } from './remote-messages.js';
import { applyResult } from './run-bundle.js';
import type { SessionStore } from './session-files.js';

// A worker's result on the hub (docs/workers.md): its work (the bundle's parts) into the hub's run
// folder, then the session's files as the turn left them kept, so the next step that resumes the
// session, on whichever machine, starts from this step's end. What comes back is the turn's result.

const whole = (parts: ReadonlyMap<number, string>, chunks: number): Buffer | null => {
  const got = Array.from({ length: chunks }, (_, n) => parts.get(n));
  return got.some((x) => x === undefined) ? null : Buffer.concat(got.map((x) => Buffer.from(x!, 'base64')));
};

const keepSession = (p: Pending, chunks: number, sessionId: string | undefined, sessions: SessionStore): void => {
  const blob = sessionId && chunks > 0 ? whole(p.sessionParts, chunks) : null;
  if (sessionId && blob) sessions.put(p.harness, sessionId, blob);
};

/** `dir`: a private scratch folder of the hub's */
export const takeResult = async (dir: string, p: Pending, out: Extract<Out, { kind: 'result' }>, sessions: SessionStore): Promise<TurnResult> => {
  const { stepId, runId, cwd } = p.input;
  const r = asResult(out.result);
  // a turn that could not run there sends no work: its result is all there is
  if (out.chunks === 0) return (keepSession(p, out.sessionChunks ?? 0, r.sessionId, sessions), r);
  const bundle = whole(p.parts, out.chunks);
  if (!bundle) return { outcome: 'failure', summary: 'the worker\'s work did not arrive whole', failure: 'error' };
  const file = join(dir, `${stepId}.result.bundle`);
  writeFileSync(file, bundle);
  try {
    await applyResult(cwd, p.job.branchRun ?? runId, stepId, file);
    keepSession(p, out.sessionChunks ?? 0, r.sessionId, sessions);
    return r;
  } catch (e) {
    return { outcome: 'failure', summary: `the worker's work could not be applied: ${String(e)}`, failure: 'error' };
  } finally {
    rmSync(file, { force: true });
  }
};
