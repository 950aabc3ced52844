import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackBind } from '../auth/host-names.js';
import type { AppCodes } from '../auth/app-codes.js';
import { createApp } from '../http/app.js';
import { previewUpgrade } from '../http/preview-proxy.js';
import { answerClientErrors, limitHeaderLines } from '../http/header-limits.js';
import type { StreamWatch } from '../http/stream-watch.js';
import { closeService, openService, startEngine } from '../root/open.js';
import type { Service } from '../root/service.js';
import type { Clock } from '../clock.js';
import { asBaseUrl, liveRecord, removeRecord, writeRecord } from './server-record.js';

// `svc serve`: opens the service, listens, records where it answers, then starts running runs.

export interface ServeOptions {
  readonly home: string;
  readonly port: number;
  readonly bind: string;
  readonly secret?: string;
  /** `svc app` only: see AppOptions */
  readonly codes?: AppCodes;
  readonly streams?: StreamWatch;
  /** the push stream's keep-alive period (tests shorten it) */
  readonly keepAliveMs?: number;
  /** the service's clock (tests move it by hand: waits, quota windows, trigger schedules) */
  readonly clock?: Clock;
}

export interface RunningServer {
  /** the origin, `http://127.0.0.1:7420`, no trailing slash */
  readonly url: string;
  /** {base_url} as server.json records it: the origin and `/`, e.g. `http://127.0.0.1:7420/` */
  readonly baseUrl: string;
  readonly service: Service;
  readonly server: Server;
  close(): Promise<void>;
}

const urlHost = (bind: string, port: number): string => {
  const host = bind === '0.0.0.0' ? '127.0.0.1' : bind === '::' ? '[::1]' : bind.includes(':') ? `[${bind}]` : bind;
  return `http://${host}:${port}`;
};

export const startServer = async (o: ServeOptions): Promise<RunningServer> => {
  const running = await liveRecord(o.home);
  if (running) throw new Error(`a server is already running at ${running.url}`);
  const service = await openService({ home: o.home, engine: false, ...(o.clock ? { clock: o.clock } : {}) });
  // Node would answer an HTTP/1.1 request without Host with a bare 400 before the app sees it; the
  // host rule is the one place that judges Host, so it answers every missing or empty one with 403.
  const options = { bind: o.bind, ...(o.secret ? { secret: o.secret } : {}), ...(o.keepAliveMs ? { keepAliveMs: o.keepAliveMs } : {}), ...(o.codes ? { codes: o.codes } : {}), ...(o.streams ? { streams: o.streams } : {}) };
  const server = createServer({ requireHostHeader: false }, limitHeaderLines(createApp(service, options).callback()));
  answerClientErrors(server);
  server.on('upgrade', previewUpgrade(service, o.bind));
  // wait_for_run holds a request up to five minutes, and an agent's ask_question waits for a
  // person as long as it takes: no time limit on a request once its headers have arrived.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.bind, () => resolve());
  });
  const url = urlHost(o.bind, (server.address() as AddressInfo).port);
  service.core.baseUrl = url;
  const baseUrl = asBaseUrl(url);
  writeRecord(o.home, { url: baseUrl, pid: process.pid, ...(o.secret ? { secret: o.secret } : {}) });
  startEngine(service);
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= (async () => {
    removeRecord(o.home, process.pid);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeService(service);
  })());
  return { url, baseUrl, service, server, close };
};

export const bindWarning = (bind: string): string | null =>
  isLoopbackBind(bind) ? null : `bound to ${bind}: any host name is answered; protecting this network is your duty (MCP still needs its token)`;
