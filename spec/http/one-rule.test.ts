import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';
import { call, textOf } from '../mcp/helpers/call.js';

// Issue 18, defects 1 and 2: each action has one decoder, used by both doors. Every bad input below
// goes through HTTP (POST /api/runs/{run}/…, the run in the path) and MCP (the tool, `run` among its
// arguments) and must be refused in the same words: a 400 whose detail is the tool error's text.

const test = anyTest as TestFn<{ s: McpServer; client: Client; run: string }>;

test.before(async (t) => {
  const s = await mcpServer();
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'kept', workflow: 'linear', start: false });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  // archive_run and resolve_run are off by default
  await s.setting({ _tag: 'McpToolGroup', group: 'archiving', enabled: true });
  t.context = { s, client: await s.connect(), run: r.body.runId };
});
test.after.always(async (t) => {
  await t.context.client?.close();
  await t.context.s?.close();
});

interface Row {
  readonly tool: string;
  /** the route under /api/runs/{run}; '' is POST /api/runs itself (start: no run) */
  readonly route: string;
  readonly body: Record<string, unknown>;
  /** what the refusal must say */
  readonly says: RegExp;
}

const P = 'v1';
const PROJECT = '{project}';
const ROWS: readonly Row[] = [
  { tool: 'control_run', route: 'control', body: { position: P, action: 'Pause', harness: 'codex' }, says: /^harness is only for ChangeHarness$/ },
  { tool: 'control_run', route: 'control', body: { position: P, action: 'ChangeHarness' }, says: /^ChangeHarness needs harness/ },
  { tool: 'control_run', route: 'control', body: { position: P, action: 'ChangeHarness', harness: 'codex', model: 'o3' }, says: /model is unsupported/ },
  { tool: 'control_run', route: 'control', body: { position: P, action: 'Jump' }, says: /^Jump needs node/ },
  { tool: 'control_run', route: 'control', body: { position: P, action: 'Pause', node: 'review' }, says: /^node is only for Jump$/ },
  { tool: 'control_run', route: 'control', body: { position: P, action: 'Jump', node: 'n'.repeat(201) }, says: /^node: must be a non-blank string of at most 200/ },
  { tool: 'control_run', route: 'control', body: { position: P, action: 'Pause', zzUnknown: 1 }, says: /^unknown (field|argument): zzUnknown$/ },
  { tool: 'control_run', route: 'control', body: { action: 'Pause' }, says: /^position: is required/ },
  { tool: 'revise_goal', route: 'goal', body: { goal: 'g', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'revise_goal', route: 'goal', body: { goal: ' ' }, says: /^goal: must be a non-blank string/ },
  { tool: 'message_run', route: 'messages', body: { text: 'hi', delivery: 'Hold', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'message_run', route: 'messages', body: { text: 'hi' }, says: /^delivery: is required/ },
  { tool: 'answer_question', route: 'answers', body: { question: 'q'.repeat(201), answer: 'a' }, says: /^question: must be a non-blank string of at most 200/ },
  { tool: 'answer_question', route: 'answers', body: { question: 'q1', answer: 3 }, says: /^answer: must be a string or an array of strings \(got 3\)/ },
  { tool: 'answer_question', route: 'answers', body: { question: 'q1', answer: 'a', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'archive_run', route: 'archive', body: { state: 'Archived', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'archive_run', route: 'archive', body: { state: 'Deleted' }, says: /^state: must be one of Archived, Active/ },
  { tool: 'resolve_run', route: 'resolve', body: { zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'resolve_run', route: 'resolve', body: { reason: 5 }, says: /^reason: must be a string/ },
  { tool: 'secure_run_work', route: 'secure', body: { zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'open_pull_request', route: 'pull-request', body: { base: '-x' }, says: /^base: must be a branch name \(got "-x"\)/ },
  { tool: 'open_pull_request', route: 'pull-request', body: { draft: 1, zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'merge_run', route: 'merge', body: { method: 'rebase' }, says: /^method: must be one of fast-forward, merge, squash \(got "rebase"\)$/ },
  { tool: 'merge_run', route: 'merge', body: {}, says: /^method: is required/ },
  { tool: 'merge_run', route: 'merge', body: { method: 'merge', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'update_run_from_base', route: 'update-from-base', body: { mode: 'squash' }, says: /^mode: must be one of merge, rebase/ },
  { tool: 'update_run_from_base', route: 'update-from-base', body: { mode: 'merge', onConflict: 'ask' }, says: /^onConflict: must be one of agent, leave/ },
  { tool: 'update_run_from_base', route: 'update-from-base', body: { mode: 'merge', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'check_pull_request_now', route: 'pull-request/check', body: { zzUnknown: 1 }, says: /^unknown (field|argument): zzUnknown$/ },
  { tool: 'check_pull_request_now', route: 'pull-request/check', body: { reason: 5 }, says: /^reason: must be a string/ },
  { tool: 'follow_up_run', route: 'follow-ups', body: { text: 'go on', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'follow_up_run', route: 'follow-ups', body: { text: ' ' }, says: /^text: must be a non-blank string/ },
  { tool: 'follow_up_run', route: 'follow-ups', body: {}, says: /^text: is required/ },
  { tool: 'start_run', route: '', body: { project: PROJECT, goal: 'g', model: 'gpt-5' }, says: /^model may be given only together with harness$/ },
  { tool: 'start_run', route: '', body: { project: PROJECT, goal: 'g', zzUnknown: 1 }, says: /zzUnknown/ },
  { tool: 'start_run', route: '', body: { project: 'p'.repeat(201), goal: 'g' }, says: /^project: must be a non-blank string of at most 200/ },
  { tool: 'start_run', route: '', body: { project: PROJECT, goal: 'g', workflow: 'w'.repeat(201) }, says: /^workflow: must be a non-blank string of at most 200/ },
  { tool: 'start_run', route: '', body: { project: PROJECT, goal: 'g', title: 'x'.repeat(81) }, says: /^title: must be a non-blank one-line string of at most 80/ },
  { tool: 'start_run', route: '', body: { project: PROJECT, goal: 'g', harness: 'gemini' }, says: /^harness: must be one of claude, codex, opencode/ },
  // a budget is a number of dollars above 0 (docs/usage.md)
  ...[-1, 'x', 0].flatMap((budgetUsd): Row[] => [
    { tool: 'start_run', route: '', body: { project: PROJECT, goal: 'g', budgetUsd }, says: /^budgetUsd: must be a number of US dollars above 0/ },
    { tool: 'control_run', route: 'control', body: { position: P, action: 'Resume', budgetUsd }, says: /^budgetUsd: must be a number of US dollars above 0/ },
  ]),
  { tool: 'control_run', route: 'control', body: { position: P, action: 'Pause', budgetUsd: 5 }, says: /^budgetUsd is only for Resume/ },
];

const withProject = (body: Record<string, unknown>, project: string) =>
  Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === PROJECT ? project : v]));

for (const row of ROWS) {
  test.serial(`${row.tool} ${JSON.stringify(row.body).slice(0, 90)}: the same refusal at both doors`, async (t) => {
    const { s, client, run } = t.context;
    const body = withProject(row.body, s.projectId);
    const http = await s.post(row.route ? `/api/runs/${run}/${row.route}` : '/api/runs', body);
    t.is(http.status, 400, JSON.stringify(http.body));
    const detail = String(http.body.detail);
    t.regex(detail, row.says);
    const mcp = await call(client, row.tool, row.route ? { run, ...body } : body);
    t.true(mcp.isError, textOf(mcp));
    // the same words; only what an unknown key is called differs (a body's field, a tool's argument)
    t.is(textOf(mcp), `invalid arguments for ${row.tool}: ${detail.replace(/^unknown field/, 'unknown argument')}`);
  });
}

test.serial('after all of that the run is as it was and no run was started', async (t) => {
  const { s, run } = t.context;
  const runs = (await s.get('/api/runs')).body as { runId: string }[];
  t.deepEqual(runs.map((r) => r.runId), [run]);
});
