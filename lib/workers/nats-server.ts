import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ensurePrivateDir } from '../paths.js';
import { writePrivateFile } from '../private-file.js';
import { hubConfigText, type HubConfig } from './nats-config.js';

// The hub's own JetStream server: Debian's nats-server from PATH, its config and store under
// ~/.svc/nats (owner-only). It is started only when workers are on; a restart of svc starts it
// again on the same store, so what workers sent while svc was down is still there.

export interface NatsServer {
  /** nats://127.0.0.1:PORT, as the hub connects */
  readonly url: string;
  readonly port: number;
  /** writes the config anew and has the server read it (SIGHUP): a revoked worker's connection closes */
  reload(config: Omit<HubConfig, 'storeDir' | 'listen'>): void;
  stop(): Promise<void>;
}

const LISTENING = /Listening for client connections on (\S+):(\d+)/;

const portOf = (child: ChildProcess): Promise<number> => new Promise((resolve, reject) => {
  let seen = '';
  const fail = (why: string) => reject(new Error(`nats-server did not start: ${why}${seen ? `\n${seen.slice(-2000)}` : ''}`));
  child.once('error', (e) => fail(String(e)));
  child.once('exit', (code) => fail(`it exited with code ${code}`));
  child.stderr?.on('data', (d: Buffer) => {
    seen += d.toString();
    const m = LISTENING.exec(seen);
    if (m) resolve(Number(m[2]));
  });
});

/** starts nats-server on `listen` (host:port; port -1 picks a free one) with its files under `dir` */
export const startNatsServer = async (dir: string, listen: string, config: Omit<HubConfig, 'storeDir' | 'listen'>): Promise<NatsServer> => {
  ensurePrivateDir(dir);
  const file = join(dir, 'nats.conf');
  const storeDir = ensurePrivateDir(join(dir, 'jetstream'));
  // a fixed port is kept across reloads; a picked one is pinned once known
  let bound = listen;
  const write = (c: Omit<HubConfig, 'storeDir' | 'listen'>) => writePrivateFile(file, hubConfigText({ ...c, listen: bound, storeDir }));
  write(config);
  const child = spawn('nats-server', ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await portOf(child).catch((e: unknown) => { child.kill('SIGKILL'); throw e; });
  child.stderr?.resume();
  bound = `${listen.slice(0, listen.lastIndexOf(':'))}:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `nats://127.0.0.1:${port}`, port,
    reload: (c) => { write(c); child.kill('SIGHUP'); },
    stop: async () => { child.kill('SIGTERM'); await exited; },
  };
};
