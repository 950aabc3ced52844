// Every route that reads a JSON body, each with a body it takes: the tables of bad input change
// one thing in it (an unknown field, a field nested deep, a field of the wrong type) and expect
// the 400 that names it. `{run}` and `{project}` stand for a run and a project the server holds.

export const RUN = '{run}';
export const PROJECT = '{project}';

/** [method, path, a body the route takes] */
export type BodyRoute = readonly [string, string, Record<string, unknown>];

export const BODY_ROUTES: readonly BodyRoute[] = [
  ['POST', '/api/runs', { project: PROJECT, goal: 'g', start: false, title: 't', workflow: 'linear', inputs: { ticket: 'T-1' } }],
  ['POST', `/api/runs/${RUN}/goal`, { goal: 'g' }],
  ['POST', `/api/runs/${RUN}/control`, { position: 'v1', action: 'Abort' }],
  ['POST', `/api/runs/${RUN}/messages`, { text: 'hi', delivery: 'Hold' }],
  ['POST', `/api/runs/${RUN}/answers`, { question: 'q1', answer: 'a' }],
  ['POST', `/api/runs/${RUN}/archive`, { state: 'Archived' }],
  ['POST', `/api/runs/${RUN}/resolve`, {}],
  ['POST', `/api/runs/${RUN}/secure`, {}],
  ['POST', `/api/runs/${RUN}/pull-request`, { draft: true }],
  ['POST', `/api/runs/${RUN}/merge`, { method: 'squash' }],
  ['POST', `/api/runs/${RUN}/update-from-base`, { mode: 'merge' }],
  ['POST', `/api/runs/${RUN}/export`, {}],
  ['POST', `/api/runs/${RUN}/pull-request/check`, {}],
  ['POST', `/api/runs/${RUN}/follow-ups`, { text: 'go on' }],
  ['POST', `/api/runs/${RUN}/forks`, { at: 1 }],
  ['POST', `/api/runs/${RUN}/reviews`, { comments: [{ path: 'a.txt', side: 'new', line: 1, body: 'b' }] }],
  ['POST', `/api/runs/${RUN}/keep`, { abortOthers: false }],
  ['PUT', '/api/settings', { _tag: 'WatchdogTimeout', seconds: 601 }],
  ['PUT', '/api/settings', { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 3 } }],
  ['POST', '/api/settings/mcp/token', {}],
  ['POST', '/api/harnesses/check', {}],
  ['POST', '/api/projects', { name: 'p2', folders: [] }],
  ['PATCH', `/api/projects/${PROJECT}`, { name: 'renamed' }],
  ['POST', `/api/projects/${PROJECT}/folders`, { path: '/tmp' }],
  ['PUT', '/api/workflows/extra', { source: 'digraph x {}' }],
  ['POST', '/api/workflows/extra/validation', { source: 'digraph x {}' }],
  ['PUT', '/api/personas/extra', { prompt: 'p' }],
  ['POST', '/api/skills/install', { skill: 'svc-mcp', harness: 'claude' }],
  ['POST', '/api/triggers', { name: 'r', project: PROJECT, workflow: 'linear', source: { _tag: 'Webhook' }, goal: 'g' }],
  ['PATCH', '/api/triggers/t1', { name: 'r2' }],
  ['POST', '/api/triggers/t1/fire', { summary: 's' }],
  ['POST', '/api/supervisors', { project: null }],
  ['PATCH', '/api/supervisors/s1', { paused: true }],
  ['POST', '/api/supervisors/s1/key', {}],
  ['POST', '/api/supervisors/s1/approvals/c1', { decision: 'Deny' }],
  ['POST', '/api/supervisors/s1/chat', { text: 'hi' }],
];

/** `{run}` and `{project}` filled in, wherever they stand in a body */
export const filled = (v: unknown, project: string, run: string): unknown => {
  if (v === PROJECT) return project;
  if (v === RUN) return run;
  if (Array.isArray(v)) return v.map((x) => filled(x, project, run));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, filled(x, project, run)]));
  return v;
};

/** arrays inside arrays, `levels` deep, as JSON text (JSON.stringify would overflow building it) */
export const nestedText = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

const MARK = '@@nested@@';

/** `body` as JSON text with `field`'s value replaced by a value nested `levels` deep */
export const withNested = (body: Record<string, unknown>, field: string, levels: number): string =>
  JSON.stringify({ ...body, [field]: MARK }).replace(JSON.stringify(MARK), nestedText(levels));

/** a value of another JSON type than `v`: what a field that wants `v`'s type must refuse */
export const wrongType = (v: unknown): unknown => (typeof v === 'number' ? '5' : 5);
