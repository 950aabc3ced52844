import '../helpers/env.js';
import test from 'ava';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { eventually } from '../helpers/env.js';
import { endGroup, groupMembers, procStartTime, type GroupLeader } from '../../lib/harness/process-group.js';
import { LIFELINE, runCli, type CliSpec } from '../../lib/harness/process.js';

// The lifeline wrapper (lib/harness/lifeline.mjs) and the process-group helpers a restart uses,
// on real processes.

const spec = (over: Partial<CliSpec> & Pick<CliSpec, 'bin' | 'args'>): CliSpec & { lines: string[] } => {
  const lines: string[] = [];
  return { cwd: process.cwd(), env: process.env, stdin: 'ignore', watchdogMs: 60_000, signal: new AbortController().signal, onLine: (l) => void lines.push(l), onStderr: () => undefined, lines, ...over };
};

const leaderOf = (pid: number): GroupLeader => ({ pid, startTime: procStartTime(pid)! });

test('when the server end of fd 3 closes, the wrapper ends the whole group: the CLI and what it started', async (t) => {
  const wrapper = spawn(process.execPath, [LIFELINE, 'sh', '-c', 'sleep 600 & sleep 600 & wait'], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const leader = leaderOf(wrapper.pid!);
  t.teardown(() => { try { process.kill(-leader.pid, 'SIGKILL'); } catch { /* gone */ } });
  const said = await new Promise<string>((resolve) => createInterface({ input: wrapper.stdio[3] as Readable }).once('line', resolve));
  t.true(Number.isInteger(JSON.parse(said).pid), 'the wrapper tells the CLI\'s pid');
  await eventually(() => groupMembers(leader).length, (n) => n >= 4); // wrapper, sh, two sleeps
  (wrapper.stdio[3] as Readable).destroy(); // what the kernel does when the server dies
  t.deepEqual(await eventually(() => groupMembers(leader), (m) => m.length === 0, 20_000), []);
});

test('under the wrapper, stdin reaches the CLI, stdout lines come back, the exit code is the CLI\'s, and the group is reported', async (t) => {
  let started: GroupLeader | undefined;
  const s = spec({ bin: 'sh', args: ['-c', 'read line; echo "got $line"; exit 7'], stdin: 'pipe', onStarted: (l) => (started = l) });
  const cli = runCli(s);
  cli.child.stdin!.end('hello\n');
  const exit = await cli.exit;
  t.like(exit, { kind: 'exited', code: 7, signal: null });
  t.deepEqual(s.lines, ['got hello']);
  t.is(started?.pid, cli.child.pid);
  t.regex(started?.startTime ?? '', /^\d+$/);
});

test('a CLI killed by a signal is reported with that signal', async (t) => {
  const exit = await runCli(spec({ bin: 'sh', args: ['-c', 'kill -KILL $$'] })).exit;
  t.like(exit, { kind: 'exited', code: null, signal: 'SIGKILL' });
});

test('a CLI that is not installed is a spawn failure with ENOENT, as without the wrapper', async (t) => {
  const exit = await runCli(spec({ bin: '/nonexistent/agent-cli', args: [] })).exit;
  t.is(exit.kind, 'spawn-failed');
  t.is(exit.kind === 'spawn-failed' ? exit.error.code : '', 'ENOENT');
});

test('abort still ends the whole group through the wrapper', async (t) => {
  const abort = new AbortController();
  let leader: GroupLeader | undefined;
  const cli = runCli(spec({ bin: 'sh', args: ['-c', 'sleep 600 & sleep 600; wait'], signal: abort.signal, onStarted: (l) => (leader = l) }));
  await eventually(() => groupMembers(leader!).length, (n) => n >= 3);
  abort.abort();
  t.is((await cli.exit).kind, 'aborted');
  t.deepEqual(await eventually(() => groupMembers(leader!), (m) => m.length === 0, 20_000), []);
});

test('endGroup ends a recorded group and waits for it; a pid whose start time differs is someone else\'s and is left alone', async (t) => {
  const child = spawn('sh', ['-c', 'sleep 600 & wait'], { detached: true, stdio: 'ignore' });
  const leader = leaderOf(child.pid!);
  t.teardown(() => { try { process.kill(-leader.pid, 'SIGKILL'); } catch { /* gone */ } });
  await eventually(() => groupMembers(leader).length, (n) => n === 2);

  const reused = { pid: leader.pid, startTime: String(BigInt(leader.startTime) + 1n) };
  t.deepEqual(groupMembers(reused), []);
  t.deepEqual(await endGroup(reused), { processes: 0, gone: true });
  t.is(groupMembers(leader).length, 2, 'not signalled');

  t.deepEqual(await endGroup(leader), { processes: 2, gone: true });
  t.deepEqual(groupMembers(leader), []);
  t.deepEqual(await endGroup(leader), { processes: 0, gone: true }, 'nothing left: nothing to do');
});
