import type { ExecutionContext } from 'ava';
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import type { HarnessName } from '../../domain/workflow.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { opencodeTestEnv, writeCodexConfig, writeOpencodeConfig } from '../harness/sandbox.js';
import { tempDir } from './env.js';
import { testServer } from './server.js';
import { control, history, untilStanding } from './steer.js';

// The whole path with a real agent CLI: the engine starts a turn in the run's worktree, the CLI
// talks to the scripted model server on loopback, writes with its own tool, asks a person through
// the run's own tool server, reports its outcome, and the run records all of it.

/** one agent turn on the goal: the workflow every real-CLI run test walks */
export const REAL = `digraph real {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work
  work -> done [condition="outcome=success"]
}`;

/** two agent steps in a row: where a step end inside a run matters (forks, budgets) */
export const TWO_STEPS = `digraph two {
  start [kind=start]
  one   [kind=agent, prompt="Step one: {{goal}}"]
  two   [kind=agent, prompt="Step two: finish the work."]
  done  [kind=exit]
  start -> one
  one -> two [condition="outcome=success"]
  two -> done [condition="outcome=success"]
}`;

export interface CliDirs { readonly root: string; readonly env: NodeJS.ProcessEnv }

/** Temp XDG/CODEX homes for the CLI, the real adapters (not the scripted stand-in), its binary. */
export const realCliEnv = (harness: HarnessName): CliDirs => {
  const root = tempDir('svc-cli-');
  const dirs = Object.fromEntries(['config', 'data', 'cache', 'state', 'codex'].map((d) => [d, join(root, d)]));
  for (const d of Object.values(dirs)) mkdirSync(d);
  Object.assign(process.env, {
    XDG_CONFIG_HOME: dirs['config'], XDG_DATA_HOME: dirs['data'], XDG_CACHE_HOME: dirs['cache'], XDG_STATE_HOME: dirs['state'], CODEX_HOME: dirs['codex'],
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', NO_PROXY: '127.0.0.1,localhost',
    [`SVC_HARNESS_BIN_${harness.toUpperCase()}`]: join(process.cwd(), 'node_modules', '.bin', harness),
  });
  delete process.env['SVC_HARNESS_MODULE'];
  return { root, env: process.env };
};

/** Point the CLI at the scripted model server the way a user would (env, or its config file). */
export const pointCliAt = (harness: HarnessName, cli: CliDirs, url: string): void => {
  const sandbox = { root: cli.root, repo: '', env: cli.env, cleanup: () => undefined };
  if (harness === 'claude') Object.assign(process.env, { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-test' });
  if (harness === 'codex') (process.env['OPENAI_API_KEY'] = 'sk-test', writeCodexConfig(sandbox, url));
  if (harness === 'opencode') (Object.assign(process.env, opencodeTestEnv), writeOpencodeConfig(sandbox, url));
};

/**
 * The real CLI pointed at an empty scripted model server before the service starts (so its
 * harness check finds the CLI ready), and a service with these workflows; tests push the turns.
 */
export const realCliServer = async (t: ExecutionContext, harness: HarnessName, workflows: Record<string, string>) => {
  const cli = realCliEnv(harness);
  const model = await startModelServer([]);
  t.teardown(() => model.close());
  pointCliAt(harness, cli, model.url);
  const s = await testServer({ workflows });
  t.teardown(() => s.close());
  return { s, model };
};

export const realRun = async (t: ExecutionContext, harness: HarnessName, pointAt: (modelUrl: string) => void): Promise<void> => {
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());
  const created = await s.post('/api/runs', { project: s.projectId, goal: 'Write hello.txt, then ask which colour.', workflow: 'real', harness, start: false });
  const runId = created.body.runId as string;
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  const model = await startModelServer([
    writeFile(join(dir, 'hello.txt'), `hello from ${harness}\n`, 'Writing the file.'),
    callMcp('ask_question', { prompt: 'Which colour?', options: ['red', 'blue'], allowText: false }),
    callMcp('report_outcome', { outcome: 'success', summary: 'hello.txt written, colour chosen' }),
    say('All done.'),
  ]);
  t.teardown(() => model.close());
  pointAt(model.url);

  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const asked = await untilStanding(s, runId, 'Question', 150_000).catch(async (err: Error) => {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${err.message}\n--- run log ---\n${log}`);
  });
  t.deepEqual(asked.question.options, ['red', 'blue']);
  t.is((await s.post(`/api/runs/${runId}/answers`, { question: asked.question.id, answer: ['blue'] })).body.delivered, true);
  const done = await untilStanding(s, runId, 'Succeeded', 150_000);

  t.is(done.outcome, 'success');
  t.is(readFileSync(join(dir, 'hello.txt'), 'utf8'), `hello from ${harness}\n`);
  t.true(JSON.stringify(model.scriptedBodies()).includes('blue'), 'the answer reached the model');
  const events = await history(s, runId);
  const types = events.map((e) => e.type);
  for (const type of ['StepSessionStarted', 'QuestionAsked', 'QuestionAnswered', 'OutcomeReported', 'StepSucceeded', 'RunSucceeded']) t.true(types.includes(type), type);
  t.is(events.find((e) => e.type === 'StepStarted').data.harness, harness);
  t.is(events.find((e) => e.type === 'StepSucceeded').data.summary, 'hello.txt written, colour chosen', 'the reported outcome wins');
  const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines;
  t.true(log.filter((l: any) => l.source === 'agent').length >= 3, 'the CLI\'s own output is in the log');
  t.true(log.some((l: any) => l.source === 'service' && l.text.includes(`started on ${harness}`)));
  const thread = (await s.get(`/api/runs/${runId}/thread?pageSize=100`)).body.rows;
  t.true(thread.some((r: any) => r.kind === 'agent' && r.text.includes('All done.')), 'the agent\'s words are in the thread');
  t.true(thread.some((r: any) => r.kind === 'answer' && r.text === 'blue'));
};
