import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../paths.js';
import { writePrivateFile } from '../private-file.js';
import { hubConfigText, type HubConfig } from './nats-config.js';
import { ensureHubCert, isLoopbackHost, joinUrlOf, type HubCert } from './hub-tls.js';

// The hub's own JetStream server: Debian's nats-server from PATH, its config and store under
// ~/.svc/nats (owner-only). It is started only when workers are on; a restart of svc starts it
// again on the same store, so what workers sent while svc was down is still there.

export interface NatsServer {
  /** nats://127.0.0.1:PORT, as the hub connects */
  readonly url: string;
  readonly port: number;
  /** what a worker joins with: the same address, or tls://…#sha256=… when the server listens beyond loopback */
  readonly joinUrl: string;
  /** the hub's certificate when connections are TLS (the hub's own connection trusts it too) */
  readonly tls?: HubCert;
  /**
   * writes the config anew and has the server read it (SIGHUP): a revoked worker's connection
   * closes. Resolves once the server says it has read it, so a token made is a token that works.
   */
  reload(config: Omit<HubConfig, 'storeDir' | 'listen'>): Promise<void>;
  stop(): Promise<void>;
}

const LISTENING = /Listening for client connections on (\S+):(\d+)/;

const portOf = (child: ChildProcess): Promise<number> => new Promise((resolve, reject) => {
  let seen = '';
  const fail = (why: string) => reject(new Error(`nats-server did not start: ${why}${seen ? `\n${seen.slice(-2000)}` : ''}`));
  child.once('error', (e) => fail(String(e)));
  child.once('exit', (code) => fail(`it exited with code ${code}`));
  const onData = (d: Buffer) => {
    seen += d.toString();
    const m = LISTENING.exec(seen);
    if (m) { child.stderr?.off('data', onData); resolve(Number(m[2])); }
  };
  child.stderr?.on('data', onData);
});

// svc killed hard leaves its nats-server behind, holding the port and the store: the next start
// ends it first, known by its pid file and by its command line naming this very config
const endLeftover = (dir: string, file: string): void => {
  const pidFile = join(dir, 'nats.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  let cmdline = '';
  try { cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { return; }
  if (Number.isInteger(pid) && pid > 1 && cmdline.includes('nats-server') && cmdline.includes(file)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ }
    // its port is free once it is gone: wait for that (a moment), not for a fixed time
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) Atomics.wait(pause, 0, 0, 20);
  }
};

const RELOADED = /Reloaded server configuration/g;
const RELOAD_WAIT_MS = 5_000;

// The server reads a new config a moment after its SIGHUP, and until then it refuses a new
// worker's key ("Authorization Violation") and JetStream answers "not enabled". Its log says when
// it is done: each reload waits for its own line (or a few seconds, or the server's end).
const reloadWatch = (child: ChildProcess) => {
  let asked = 0;
  let done = 0;
  const waiting: { readonly n: number; readonly resolve: () => void }[] = [];
  const settle = () => { for (const w of waiting.splice(0)) (w.n <= done ? w.resolve() : waiting.push(w)); };
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4096);
    const seen = tail.match(RELOADED)?.length ?? 0;
    if (seen > 0) { done += seen; tail = tail.slice(tail.lastIndexOf('Reloaded server configuration') + 1); settle(); }
  });
  child.once('exit', () => { done = Number.MAX_SAFE_INTEGER; settle(); });
  return {
    next: (): Promise<void> => new Promise((resolve) => {
      const timer = setTimeout(resolve, RELOAD_WAIT_MS);
      waiting.push({ n: ++asked, resolve: () => { clearTimeout(timer); resolve(); } });
      settle();
    }),
  };
};

// a server that exits without being asked (killed, crashed) is started again on the same port and
// store after this pause, growing to RESTART_MAX_MS while it keeps failing: the hub's connection and
// the workers' reconnect to it, and no step recorded in its store is lost
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 10_000;

const spawnServer = (file: string): ChildProcess => spawn('nats-server', ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });

/** starts nats-server on `listen` (host:port; port -1 picks a free one) with its files under `dir` */
export const startNatsServer = async (dir: string, listen: string, config: Omit<HubConfig, 'storeDir' | 'listen'>): Promise<NatsServer> => {
  ensurePrivateDir(dir);
  const file = join(dir, 'nats.conf');
  const storeDir = ensurePrivateDir(join(dir, 'jetstream'));
  // a fixed port is kept across reloads; a picked one is pinned once known
  let bound = listen;
  const host = listen.slice(0, listen.lastIndexOf(':'));
  // beyond loopback every connection is TLS; on loopback nothing crosses a wire
  const tls = isLoopbackHost(host) ? undefined : ensureHubCert(dir);
  const write = (c: Omit<HubConfig, 'storeDir' | 'listen'>) =>
    writePrivateFile(file, hubConfigText({ ...c, listen: bound, storeDir, ...(tls ? { tls: { certFile: tls.certFile, keyFile: tls.keyFile } } : {}) }));
  write(config);
  endLeftover(dir, file);
  const launch = async (): Promise<{ child: ChildProcess; port: number }> => {
    const child = spawnServer(file);
    if (child.pid) writePrivateFile(join(dir, 'nats.pid'), String(child.pid));
    const port = await portOf(child).catch((e: unknown) => { child.kill('SIGKILL'); throw e; });
    return { child, port };
  };
  const first = await launch();
  // the picked port pinned in the file, so a restart listens where the hub and workers connect
  bound = `${host}:${first.port}`;
  write(config);
  let child = first.child;
  let reloads = reloadWatch(child);
  let stopping = false;
  let exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // started again after `wait`, doubling up to RESTART_MAX_MS while it fails to start
  const restart = (wait: number): void => {
    setTimeout(() => {
      if (stopping) return;
      launch().then(({ child: next }) => {
        child = next;
        reloads = reloadWatch(next);
        exited = new Promise<void>((resolve) => next.once('exit', () => resolve()));
        if (stopping) { next.kill('SIGTERM'); return; }
        console.error('svc: the hub\'s nats-server runs again');
        watch(next);
      }, (e: unknown) => {
        console.error(`svc: the hub's nats-server did not start again (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); trying again`);
        restart(Math.min(wait * 2, RESTART_MAX_MS));
      });
    }, wait).unref();
  };
  const watch = (c: ChildProcess): void => {
    c.once('exit', (code, signal) => {
      if (stopping) return;
      console.error(`svc: the hub's nats-server exited (${signal ?? `code ${code}`}); starting it again on port ${first.port}`);
      restart(RESTART_FIRST_MS);
    });
  };
  watch(child);
  // the hub connects where the server listens: loopback when it listens everywhere
  const reach = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host;
  return {
    url: `nats://${reach}:${first.port}`, port: first.port,
    joinUrl: tls ? joinUrlOf(reach, first.port, tls.fingerprint) : `nats://${reach}:${first.port}`,
    ...(tls ? { tls } : {}),
    reload: (c) => { write(c); child.kill('SIGHUP'); return reloads.next(); },
    stop: async () => { stopping = true; child.kill('SIGTERM'); await exited; },
  };
};
