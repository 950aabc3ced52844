import childProcess, { ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { Server } from 'node:net';

// Bundled first into every file of `npm run test:core` (spec/run/core.ts): the core tests (commands,
// projections, journal) are for the edit-test loop, so any of them that starts a server, a CLI or
// a browser fails at once instead of quietly making the loop slow.

const refuse = (what: string) => () => {
  throw new Error(`test:core starts no ${what}: move this test out of spec/commands, spec/projections and spec/journal`);
};

Server.prototype.listen = refuse('server');
// every asynchronous child (spawn, execFile, fork, a browser's launch) goes through this method
(ChildProcess.prototype as unknown as { spawn: unknown }).spawn = refuse('process');
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = refuse(`process (${name})`);
}
syncBuiltinESMExports();
