import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { ProjectEvent } from '../journal/project-events.js';
import type { Projects } from '../projections/projects.js';
import type { SandboxMode } from '../domain/runs.js';
import { quoted } from '../domain/quoted.js';
import { invalid, notFound, unavailable, type Refusal } from './refusal.js';

// A project's sandbox (docs/sandbox.md): whether its runs need svc's sandbox, and what its
// sandboxed steps may reach besides their model API.

type ProjectDecision = Either<Refusal, ProjectEvent[]>;

/** An allowlist entry as lib/sandbox/allowlist.ts reads it: host, host:port, *.domain, [v6]:port, or '*'. */
export const validEntry = (entry: string): boolean =>
  entry === '*' || /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i.test(entry) || /^\[[0-9a-f:]+\](:\d{1,5})?$/i.test(entry);

export const decideChooseSandbox = (ps: Projects, c: { projectId: string; sandbox: SandboxMode }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  return right((p.sandbox ?? 'preferred') === c.sandbox ? [] : [{ type: 'SandboxChosen', data: { projectId: p.id, sandbox: c.sandbox } }]);
};

const sameList = (a: readonly string[] | undefined, b: readonly string[]): boolean => (a ?? []).join('\n') === b.join('\n');

/** `allow` for edit and full steps; `full` is what full steps may reach besides, '*' for anything */
export const decideSetEgressAllowlist = (ps: Projects, c: { projectId: string; allow?: readonly string[]; full?: readonly string[] }): ProjectDecision => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  const allow = c.allow ?? p.egressAllow ?? [];
  const full = c.full ?? p.egressAllowFull ?? [];
  const bad = [...allow.filter((e) => e === '*'), ...[...allow, ...full].filter((e) => !validEntry(e))];
  if (bad.length) return left(invalid(`not a host pattern for the egress allowlist: ${bad.map((e) => JSON.stringify(quoted(e))).join(', ')} (host, host:port, *.domain; '*' only in egressAllowFull)`));
  if (sameList(p.egressAllow, allow) && sameList(p.egressAllowFull, full)) return right([]);
  return right([{ type: 'EgressAllowlistSet', data: { projectId: p.id, allow: [...allow], full: [...full] } }]);
};

/** What a start needs to know of the sandbox: the project's mode, and why the sandbox cannot start here (null: it can). */
export interface SandboxReadiness {
  readonly mode: SandboxMode;
  readonly unavailable: string | null;
}

export const sandboxRefusal = (r: SandboxReadiness): Refusal | null =>
  r.mode === 'required' && r.unavailable
    ? unavailable(`not started: this project requires svc's sandbox, and it cannot start here: ${r.unavailable}. Fix that (\`svc doctor\` checks it), or set the project's sandbox to preferred.`)
    : null;
