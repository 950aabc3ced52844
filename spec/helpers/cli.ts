import { join } from 'node:path';
import { repoRoot } from './env.js';
import { spawnGroup } from './process-groups.js';

// The real `svc` executable in a child process (through tsx, as bin/svc runs it in a checkout), in a
// process group the test file ends when its tests are done (process-groups.ts).

/**
 * node's arguments that run the CLI's entry point. `npm test` bundles it once with the spec files
 * and names the bundle in SVC_SPEC_CLI (spec/run/suite.ts): the same sources, without tsx, as the
 * fixtures a child imports (SVC_HARNESS_MODULE) are bundled too (env.ts fixtureModule).
 */
const bundled = process.env['SVC_SPEC_CLI'];
export const CLI = bundled ? [bundled] : ['--import', 'tsx', join(repoRoot, 'lib', 'cli', 'run.ts')];

export interface CliResult { readonly code: number | null; readonly stdout: string; readonly stderr: string }

/** runs `svc <args>` with `env` to its end; one that hangs (a serve that should have refused) is killed after a minute */
export const runCli = (env: NodeJS.ProcessEnv, args: readonly string[]): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawnGroup(process.execPath, [...CLI, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
