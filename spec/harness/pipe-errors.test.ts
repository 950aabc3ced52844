import test from 'ava';
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { eachLine } from '../../lib/harness/process.js';

// A sandboxed CLI is asked to stop through its lifeline's fd 3. When it dies as we write, the
// write fails with EPIPE; readline re-emits a pipe's errors on its interface, and with no listener
// there that was an uncaught exception: the full suite saw it end a test process, and in svc it
// would end the server. Hundreds of children that exit while we write to them: nothing escapes.
// The children are `true`, which exits at once: a node child costs the two cores 200 start-ups.
test('a child that dies while we write to its pipe ends that pipe, not the process', async (t) => {
  const escaped: unknown[] = [];
  const onUncaught = (e: unknown) => escaped.push(e);
  process.on('uncaughtException', onUncaught);
  t.teardown(() => void process.off('uncaughtException', onUncaught));
  let failedWrites = 0;
  await Promise.all(Array.from({ length: 200 }, () => new Promise<void>((resolve) => {
    const child = spawn('true', [], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    const fd3 = child.stdio[3] as Readable & Writable;
    eachLine(fd3, () => undefined);
    eachLine(child.stdout!, () => undefined);
    const write = (): void => {
      if (fd3.destroyed || !fd3.writable) return void setTimeout(resolve, 20);
      fd3.write('{"signal":"SIGTERM"}\n', (e) => { if (e) failedWrites++; });
      setTimeout(write, 1);
    };
    write();
  })));
  t.true(failedWrites > 0, 'some writes met a dead child (EPIPE), as the suite saw');
  t.deepEqual(escaped, []);
});
