import '../helpers/env.js';
import test from 'ava';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { eventually, repoRoot, tempDir } from '../helpers/env.js';
import { runCli } from '../helpers/cli.js';
import { realCliEnv } from '../helpers/real-run.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { control, detail, history, untilStanding } from '../helpers/steer.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say } from '../fixtures/model-server/script.js';

// A first run on a machine without the agent CLI: the real adapters, with each CLI's binary
// configured to a path the test controls (SVC_HARNESS_BIN_<NAME>). A start that needs a missing
// CLI is refused at every door with the same words; a CLI that vanishes mid-run pauses the run.

const cli = realCliEnv('claude');
const bin = join(tempDir('svc-bin-'), 'bin');
mkdirSync(bin);
const claude = join(bin, 'claude');
const putClaude = () => (rmSync(claude, { force: true }), symlinkSync(join(repoRoot, 'node_modules', '.bin', 'claude'), claude));
// opencode is there but broken (its --version fails): on PATH, yet not a stale "not found"
writeFileSync(join(bin, 'opencode'), '#!/bin/sh\necho broken >&2\nexit 3\n', { mode: 0o755 });
Object.assign(process.env, {
  SVC_HARNESS_BIN_CLAUDE: claude,
  SVC_HARNESS_BIN_CODEX: join(bin, 'codex'),
  SVC_HARNESS_BIN_OPENCODE: join(bin, 'opencode'),
  ANTHROPIC_API_KEY: 'sk-test',
});

const checked = (s: TestServer) =>
  eventually(() => s.get('/api/harnesses'), (r) => r.body.harnesses.every((h: any) => h.availability._tag !== 'Unchecked'), 60_000);

const mcpClient = async (s: TestServer): Promise<Client> => {
  const client = new Client({ name: 'missing-cli-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ensureToken(s.home)}` } } }));
  return client;
};

// start -> hold (a gate) -> work -> done; a failed `work` would go to `stuck`.
const VANISH = `digraph vanish {
  start [kind=start]
  hold  [kind=gate]
  work  [kind=agent, prompt="{{goal}}"]
  stuck [kind=gate]
  done  [kind=exit]
  start -> hold -> work
  work -> done [condition="outcome=success"]
  work -> stuck [condition="outcome=failure"]
  stuck -> done
}`;

const CLAUDE_MISSING = new RegExp(
  '^not started: harness claude is not installed \\(.*claude: not found\\); install it with `npm install -g @anthropic-ai/claude-code`\\. ' +
  'Then start it again \\(`svc doctor` checks every harness\\), or choose another harness\\.$',
);

test.serial('without claude, a start through HTTP, MCP or `svc start` is refused with the same detail; start:false is recorded', async (t) => {
  const s = await testServer({ workflows: { vanish: VANISH } });
  t.teardown(() => s.close());
  t.like((await checked(s)).body.harnesses.find((h: any) => h.name === 'claude').availability, { _tag: 'NotInstalled' });

  const http = await s.post('/api/runs', { project: s.projectId, goal: 'first run', workflow: 'linear', inputs: { ticket: 'T-1' } });
  t.is(http.status, 409);
  t.regex(http.body.detail, CLAUDE_MISSING);

  const client = await mcpClient(s);
  t.teardown(() => client.close());
  const mcp = (await client.callTool({ name: 'start_run', arguments: { project: s.projectId, goal: 'first run', workflow: 'linear', inputs: { ticket: 'T-1' } } })) as any;
  t.true(mcp.isError);
  t.true(mcp.content[0].text.includes(http.body.detail), mcp.content[0].text);

  const env = { ...process.env, SVC_HOME: s.home };
  const started = await runCli(env, ['start', s.projectId, 'first', 'run', '--workflow', 'linear']);
  t.is(started.code, 1);
  t.is(started.stdout, '');
  t.is(started.stderr, `svc: ${http.body.detail}\n`);

  const codex = await s.post('/api/runs', { project: s.projectId, goal: 'on codex', harness: 'codex', workflow: 'linear' });
  t.regex(codex.body.detail, /harness codex is not installed .*npm install -g @openai\/codex/);
  // a request that is wrong gets its 400 first; readiness comes after (issue 29)
  const undeclared = await s.post('/api/runs', { project: s.projectId, ticket: 'T-9', workflow: 'vanish' });
  t.is(undeclared.status, 400, JSON.stringify(undeclared.body));
  t.regex(undeclared.body.detail, /^input "ticket" is not declared by workflow vanish/);
  const mcpUndeclared = (await client.callTool({ name: 'start_run', arguments: { project: s.projectId, goal: 'g', workflow: 'linear', inputs: { colour: 'red' } } })) as any;
  t.true(mcpUndeclared.isError);
  t.regex(mcpUndeclared.content[0].text, /input "colour" is not declared by workflow linear/);
  t.deepEqual((await s.get('/api/runs')).body, [], 'nothing was recorded by a refused start');

  // what the New run form asks before starting: the same rule, the same words
  const needed = await s.get(`/api/harnesses/needed?project=${s.projectId}&workflow=linear`);
  t.is(needed.status, 200);
  t.like(needed.body.harnesses, [{ harness: 'claude', state: 'NotInstalled', fix: 'install it with `npm install -g @anthropic-ai/claude-code`', blocks: true }]);
  t.is(needed.body.refusal, http.body.detail);
  const broken = (await s.get(`/api/harnesses/needed?project=${s.projectId}&workflow=linear&harness=opencode`)).body;
  t.like(broken.harnesses, [{ harness: 'opencode', state: 'NotInstalled', blocks: true }]);
  t.regex(broken.refusal, /harness opencode is not installed \(.*opencode --version failed: broken\)/);
  for (const [query, status, said] of [
    [`project=${s.projectId}&flavour=x`, 400, /unknown query parameter flavour/],
    [`project=${s.projectId}&harness=gpt`, 400, /harness/],
    ['workflow=linear', 400, /project/],
    ['project=nope', 404, /unknown project: nope/],
    [`project=${s.projectId}&workflow=nope`, 400, /nope/],
  ] as const) {
    const bad = await s.get(`/api/harnesses/needed?${query}`);
    t.is(bad.status, status, query);
    t.regex(bad.body.detail, said, query);
  }

  const later = await s.post('/api/runs', { project: s.projectId, goal: 'for later', workflow: 'linear', start: false });
  t.is(later.status, 200);
  t.is((await detail(s, later.body.runId)).standing, 'Created');

  // installed after the refusal: the next start goes through without waiting for a re-check
  putClaude();
  const again = await s.post('/api/runs', { project: s.projectId, goal: 'first run', workflow: 'vanish' });
  t.is(again.status, 200, JSON.stringify(again.body));
  await untilStanding(s, again.body.runId, 'Paused');
  await eventually(() => s.get('/api/harnesses'), (r) => r.body.harnesses.find((h: any) => h.name === 'claude').availability._tag === 'Ready');
});


test.serial('a CLI that vanishes between steps pauses the run with the reason; Resume after it is back continues', async (t) => {
  t.timeout(240_000);
  putClaude();
  const model = await startModelServer([callMcp('report_outcome', { outcome: 'success', summary: 'worked after all' }), say('Done.')]);
  t.teardown(() => model.close());
  process.env['ANTHROPIC_BASE_URL'] = model.url;
  const s = await testServer({ workflows: { vanish: VANISH } });
  t.teardown(() => s.close());
  t.like((await checked(s)).body.harnesses.find((h: any) => h.name === 'claude').availability, { _tag: 'Ready' });
  const made = await s.post('/api/runs', { project: s.projectId, goal: 'Do the work.', workflow: 'vanish' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const runId = made.body.runId as string;
  await untilStanding(s, runId, 'Paused');
  t.is((await detail(s, runId)).currentStep, 'hold');

  rmSync(claude);
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied', 'the gate is passed');
  const paused = await eventually(() => detail(s, runId), (d) => d.standing === 'Paused' && d.currentStep === 'work' && d.phase === 'Paused');
  for (const a of ['ChangeHarness', 'Resume', 'Abort']) t.true(paused.allowedActions.includes(a), a);
  const events = await history(s, runId);
  t.false(events.some((e) => e.type === 'StepFailed'), 'no failure edge was taken');
  const pause = events.filter((e) => e.type === 'RunPaused').pop();
  t.like(pause.data, { by: { kind: 'engine' } });
  t.regex(pause.data.reason, /^harness problem: claude is not installed \(.*ENOENT.*\)$/);
  const thread = (await s.get(`/api/runs/${runId}/thread`)).body;
  t.true(JSON.stringify(thread).includes(`paused: ${pause.data.reason}`.replace(/"/g, '\\"')), 'the reason shows in the thread');

  // the engine had claude checked again: a new start is now refused up front
  await eventually(() => s.get('/api/harnesses'), (r) => r.body.harnesses.find((h: any) => h.name === 'claude').availability._tag === 'NotInstalled');
  t.regex((await s.post('/api/runs', { project: s.projectId, goal: 'another', workflow: 'vanish' })).body.detail, CLAUDE_MISSING);

  putClaude();
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const done = await untilStanding(s, runId, 'Succeeded', 200_000);
  t.is(done.outcome, 'success');
  const after = await history(s, runId);
  t.is(after.filter((e) => e.type === 'StepStarted' && e.data.node === 'work').length, 2, 'the step ran again');
  t.is(after.find((e) => e.type === 'StepSucceeded' && e.data.node === 'work')?.data.summary, 'worked after all');
  void cli;
});
