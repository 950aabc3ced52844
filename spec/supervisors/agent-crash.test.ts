import '../helpers/env.js';
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, hang, say } from '../fixtures/model-server/script.js';
import { freshHome, repoRoot } from '../helpers/env.js';
import { realCliEnv } from '../helpers/real-run.js';

// SIGKILL during a supervisor turn on the real claude CLI: no chat entry is lost, and on the next
// start the turn is recorded as interrupted and runs again over the same message.

interface Child { proc: ChildProcess; entries: any[]; until(f: (e: any[]) => boolean): Promise<void> }

const start = (home: string, text?: string): Child => {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'spec', 'fixtures', 'supervisors', 'agent-child.ts'), home, ...(text ? [text] : [])], {
    cwd: repoRoot, env: process.env, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const entries: any[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    if (line.startsWith('{')) entries.push(JSON.parse(line));
    for (const w of waiters) w();
  });
  const until = (f: (e: any[]) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => f(entries) && resolve();
      waiters.push(check);
      proc.once('exit', (code) => reject(new Error(`child exited (${code}) with ${JSON.stringify(entries)}`)));
      check();
    });
  return { proc, entries, until };
};

test('SIGKILL mid-turn: nothing lost, the turn is recorded as interrupted and runs again', async (t) => {
  t.timeout(300_000);
  realCliEnv('claude');
  process.env['SVC_SUPERVISOR_HARNESSES'] = 'cli';
  const model = await startModelServer([callMcp('list_projects', {}, 'Working on it.'), hang()]);
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const home = freshHome();
  const first = start(home, 'PLEASE do the thing');
  t.teardown(async () => (first.proc.kill('SIGKILL'), second?.proc.kill('SIGKILL'), await model.close()));
  await first.until((e) => e.some((x) => x.type === 'SupervisorReplied'));
  await model.waitForScripted(2); // the model is "thinking": the turn is in flight
  const gone = new Promise((r) => first.proc.once('exit', r));
  first.proc.kill('SIGKILL');
  await gone;
  t.deepEqual(first.entries.map((e) => e.type), ['PersonWrote', 'TurnStarted', 'SupervisorReplied']);

  model.push(say('Recovered and done.'));
  let second: Child | undefined = start(home);
  await second.until((e) => e.some((x) => x.type === 'TurnEnded'));
  t.deepEqual(second.entries.map((e) => e.type), ['TurnInterrupted', 'TurnStarted', 'SupervisorReplied', 'TurnEnded']);
  t.is(second.entries[0].data.turnId, first.entries[1].data.turnId, 'the cut-off turn is the one recorded as interrupted');
  t.is(second.entries[2].data.text, 'Recovered and done.');
  t.true(second.entries[1].data.upTo >= 1, 'the retried turn covers the same message');
  const retried = JSON.stringify(model.scriptedBodies().at(-1));
  t.true(retried.includes('PLEASE do the thing'), 'the message reaches the model again');
  t.true(retried.includes('Working on it.'), 'the reply written before the kill is in the chat, and in the prompt');
});
