import '../helpers/env.js';
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../lib/harness/process.js';
import { bwrapBin, sandboxProbe } from '../../lib/sandbox/probe.js';
import { eventually } from '../helpers/env.js';
import { makeSandbox, svcSandbox } from '../harness/sandbox.js';

// Abort ends a sandboxed CLI the way it ends an unsandboxed one: SIGTERM first, reaching the CLI
// inside bubblewrap (its own PID namespace and session), so it can stop cleanly; SIGKILL only
// after the grace. A stand-in CLI that traps SIGTERM says whether it got one.

const TRAPS = 'trap \'echo TERM > got-term; exit 0\' TERM; echo ready; while :; do sleep 0.1; done';

test('abort sends SIGTERM to the CLI inside the sandbox before anything harder', async (t) => {
  t.timeout(60_000);
  const probe = await sandboxProbe(bwrapBin());
  if (probe._tag !== 'Ready') return t.pass(`no sandbox on this machine: ${probe.reason}`);
  const sb = makeSandbox();
  t.teardown(() => sb.cleanup());
  const box = svcSandbox(sb, 'codex', { modelUrl: 'http://127.0.0.1:9', runTools: 'http://127.0.0.1:9/run-tools/r' });
  t.teardown(() => box.close());
  const abort = new AbortController();
  const lines: string[] = [];
  const cli = runCli({ bin: 'sh', args: ['-c', TRAPS], cwd: sb.repo, env: sb.env, stdin: 'ignore', watchdogMs: 60_000, signal: abort.signal, onLine: (l) => void lines.push(l), onStderr: () => undefined, sandbox: box });
  await eventually(() => lines, (l) => l.includes('ready'), 20_000);
  abort.abort();
  t.is((await cli.exit).kind, 'aborted');
  t.true(existsSync(join(sb.repo, 'got-term')), 'the CLI inside got SIGTERM');
  t.is(readFileSync(join(sb.repo, 'got-term'), 'utf8'), 'TERM\n');
});
