import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxChoice } from '../sandbox/sandbox.js';
import type { GroupSpec } from './process.js';

// A preview in the run's sandbox (docs/preview.md): the command step's rules (the run's folders
// writable, the project's egress allowlist), and a folder of svc's bound in where the lifeline
// inside listens on a unix socket and carries each connection to the dev server's loopback port
// (the sandbox's network namespace is its own: svc cannot reach that port directly).

export interface Box {
  readonly wrap: NonNullable<GroupSpec['wrap']>;
  /** the socket svc's proxy connects to */
  readonly socket: string;
  /** the environment that makes the lifeline bridge the socket to `port` inside */
  bridgeEnv(port: number): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export type Boxing = { readonly _tag: 'Boxed'; readonly box: Box } | { readonly _tag: 'Open'; readonly reason: string } | { readonly _tag: 'Refused'; readonly detail: string };

export const boxFor = (choice: SandboxChoice, log: (text: string) => void): Boxing => {
  if (choice._tag !== 'Sandboxed') {
    return choice.required ? { _tag: 'Refused', detail: `the project requires svc's sandbox, and it cannot start: ${choice.reason}` } : { _tag: 'Open', reason: choice.reason };
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-preview-'));
  chmodSync(dir, 0o700);
  try {
    const sandbox = choice.open({ tools: 'command', env: process.env, ingress: dir, onRefused: (d, why) => log(`preview sandbox: refused ${d} (${why})`) });
    const socket = join(dir, 'preview.sock');
    return {
      _tag: 'Boxed',
      box: {
        wrap: (file, args, env) => sandbox.wrap(file, args, env), socket,
        bridgeEnv: (port) => ({ SVC_INGRESS_BRIDGE: `${socket}=${port}` }),
        close: async () => { await sandbox.close(); rmSync(dir, { recursive: true, force: true }); },
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { _tag: 'Refused', detail: `svc's sandbox could not be made: ${err instanceof Error ? err.message : String(err)}` };
  }
};
