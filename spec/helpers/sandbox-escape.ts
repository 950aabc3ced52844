import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import type { HarnessName } from '../../domain/workflow.js';
import { callMcp, runShell, say, writeFile } from '../fixtures/model-server/script.js';
import { realCliServer } from './real-run.js';
import { GATE_ONLY } from './server.js';
import { control, history, untilStanding } from './steer.js';

// A real agent CLI in a sandboxed run (the default, preferred, on a machine where bubblewrap
// starts), the scripted model driving the CLI's own shell and file tools: what a person's machine
// holds is out of reach, and the run's own work still gets done (spec/sandbox/*-sandbox.test.ts).

const SECRET = 'SSH-KEY-SECRET-3141';

// tools=full: claude's own permissions let every Bash command run, so only svc's sandbox stands in the way
const FULL = `digraph full {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}", tools=full]
  done  [kind=exit]
  start -> work
  work -> done [condition="outcome=success"]
}`;

export const escapeRun = async (t: ExecutionContext, harness: HarnessName): Promise<void> => {
  const { s, model } = await realCliServer(t, harness, { full: FULL, gate: GATE_ONLY });
  const home = process.env['HOME']!;
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
  const token = readFileSync(join(s.home, 'mcp-token'), 'utf8').trim();
  let reached = 0;
  const outside = createServer((_q, r) => (reached++, r.end('REACHED-OUTSIDE'))).listen(0, '127.0.0.1');
  t.teardown(() => void outside.close());
  await new Promise((r) => outside.once('listening', r));
  const port = (outside.address() as { port: number }).port;

  const other = (await s.post('/api/runs', { project: s.projectId, goal: 'wait at the gate', workflow: 'gate' })).body.runId as string;
  await untilStanding(s, other, 'Paused');
  const otherDir = worktreeDir(s.home, other, basename(s.repo));
  t.true(existsSync(otherDir), 'the other run has its worktree');

  const mainBefore = execFileSync('git', ['rev-parse', 'main'], { cwd: s.repo, encoding: 'utf8' }).trim();
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Do the work.', workflow: 'full', harness, start: false })).body.runId as string;
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  const attempts = [
    `cat ${home}/.ssh/id_ed25519`,
    `cat ${s.home}/mcp-token`,
    `echo in > ${otherDir}/intruder.txt`,
    `echo hook > ${s.repo}/.git/hooks/pre-commit`,
    `git -C ${s.repo} branch -f main HEAD`,
    `echo in > ${s.repo}/stolen.txt`,
    `curl -s -m 5 --noproxy '*' http://127.0.0.1:${port}/direct`,
    `curl -s -m 5 http://127.0.0.1:${port}/proxied`,
  ].map((c) => `${c} 2>&1; echo "[exit $?]"`).join('\n');
  // one script in the run's folder, so claude's own rules (which ask about compound commands and
  // paths outside the folder) let it run: the sandbox alone must refuse what it tries
  model.push(
    writeFile(join(dir, 'attempts.sh'), `${attempts}\n`),
    runShell('sh attempts.sh'),
    writeFile(join(dir, 'hello.txt'), 'hello from the sandbox\n'),
    runShell('git add hello.txt && git -c user.name=a -c user.email=a@a commit -qm hello && git log --oneline -1'),
    callMcp('ask_question', { prompt: 'Which colour?', options: ['red', 'blue'], allowText: false }),
    callMcp('report_outcome', { outcome: 'success', summary: 'work done in the sandbox' }),
    say('All done.'),
  );
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const asked = await untilStanding(s, runId, 'Question', 150_000);
  await s.post(`/api/runs/${runId}/answers`, { question: asked.question.id, answer: ['blue'] });
  const done = await untilStanding(s, runId, 'Succeeded', 150_000);

  const bodies = JSON.stringify(model.scriptedBodies());
  const ran = JSON.stringify(model.scriptedBodies()[2] ?? '');
  t.true(ran.includes('.ssh/id_ed25519: No such file or directory'), `the ssh folder is not there: ${ran.slice(0, 400)}`);
  t.true(ran.includes('.svc/mcp-token: No such file or directory'), 'svc\'s home is not there');
  t.true(ran.includes('intruder.txt: Directory nonexistent'), 'the other run\'s folder is not there');
  // the run works in its own repository: of the user's git folder only its objects are there, read-only
  t.regex(ran, /hooks\/pre-commit: (Directory nonexistent|Read-only file system)/, 'the user\'s hooks are not writable');
  t.is(execFileSync('git', ['rev-parse', 'main'], { cwd: s.repo, encoding: 'utf8' }).trim(), mainBefore, 'the user\'s main did not move');
  t.true(ran.includes('[exit 7]'), 'a direct connection finds nothing to connect to');
  t.true(ran.includes('svc sandbox: not on the allowlist'), 'the egress proxy refused the other');
  t.false(bodies.includes('require approval'), 'claude\'s own permissions stood aside');
  t.false(bodies.includes(SECRET), 'the ssh key never reached the model');
  t.false(bodies.includes(token), 'the MCP token never reached the model');
  t.false(bodies.includes('REACHED-OUTSIDE'));
  t.is(reached, 0, 'the loopback server off the allowlist saw no request');
  t.false(existsSync(join(otherDir, 'intruder.txt')), 'nothing written into the other run\'s folder');
  t.false(existsSync(join(s.repo, '.git', 'hooks', 'pre-commit')), 'no hook written into the user\'s repository');
  t.false(existsSync(join(s.repo, 'stolen.txt')), 'nothing written into the user\'s checkout');

  t.is(done.outcome, 'success');
  t.is(readFileSync(join(dir, 'hello.txt'), 'utf8'), 'hello from the sandbox\n');
  t.is(execFileSync('git', ['log', '-1', '--format=%s', `svc/${runId}`], { cwd: s.repo, encoding: 'utf8' }).trim(), 'hello', 'the agent committed on the run\'s branch');
  const events = await history(s, runId);
  t.true(events.filter((e) => e.type === 'StepStarted').every((e) => e.data.sandboxed === true), 'the step ran sandboxed');
  t.true(events.some((e) => e.type === 'QuestionAnswered') && events.some((e) => e.type === 'OutcomeReported'), 'the run tools answered through the egress proxy');
  t.deepEqual((await s.get(`/api/runs/${runId}/detail`)).body.sandbox, { sandboxed: true });
  const rows = (await s.get(`/api/runs/${runId}/activity?pageSize=50`)).body.rows as { tool: string; title: string; status: string; output: string }[];
  const refused = rows.find((r) => r.tool === 'egress' && r.title.includes(`127.0.0.1:${port}`));
  t.truthy(refused, `an activity row tells of the refused connection: ${JSON.stringify(rows.map((r) => r.title))}`);
  t.is(refused?.status, 'error');
  t.true(refused?.output.includes('not on the allowlist'));
};
