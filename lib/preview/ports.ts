import { createServer, connect } from 'node:net';
import { request } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// A free loopback port, whether a port answers yet, and the lockfile a setup ran against.

/** a port nothing listens on now: the kernel picks it; the preview binds it a moment later */
export const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => {
    const a = s.address();
    const port = typeof a === 'object' && a ? a.port : 0;
    s.close(() => resolve(port));
  });
});

export const portAnswers = (port: number): Promise<boolean> => new Promise((resolve) => {
  const c = connect({ port, host: '127.0.0.1' });
  const done = (ok: boolean) => { c.destroy(); resolve(ok); };
  c.once('connect', () => done(true));
  c.once('error', () => done(false));
  c.setTimeout(1000, () => done(false));
});

/** where a preview is reached: its loopback port, or the unix socket of its sandbox's bridge */
export interface PreviewTarget { readonly port: number; readonly socket: string | null }

/** any HTTP answer through the socket (a sandboxed preview's bridge) */
export const httpAnswers = (socketPath: string): Promise<boolean> => new Promise((resolve) => {
  const req = request({ socketPath, path: '/', method: 'HEAD', timeout: 1000 }, (res) => { res.resume(); resolve(true); });
  req.on('error', () => resolve(false));
  req.on('timeout', () => { req.destroy(); resolve(false); });
  req.end();
});

const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'Cargo.lock', 'poetry.lock', 'uv.lock', 'Gemfile.lock', 'go.sum', 'composer.lock'];

/** a fingerprint of the folder's lockfiles ('' when it has none): setup runs again when it changes */
export const lockfileFingerprint = (folder: string): string => {
  const h = createHash('sha256');
  let any = false;
  for (const name of LOCKFILES) {
    try {
      const bytes = readFileSync(join(folder, name));
      h.update(name).update('\0').update(bytes).update('\0');
      any = true;
    } catch {
      // not there
    }
  }
  return any ? h.digest('hex').slice(0, 32) : '';
};
