import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { createApp } from '../lib/http/app.js';
import type { Service } from '../lib/service/service.js';
import { sleep, within } from './common.js';

// The same wake over HTTP: GET /api/runs/:id/wait?timeout=60 held open by a worker thread's fetch
// (one socket each), the real Koa app on a loopback port. The server is the app without the
// engine (startServer would start it, and the engine would take over the active run).

const CLIENT = `
const { parentPort } = require('node:worker_threads');
const clock = () => performance.timeOrigin + performance.now();
parentPort.on('message', async ({ url, n }) => {
  const times = [];
  let bad = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    try {
      const r = await fetch(url);
      const body = await r.json();
      times.push(clock());
      if (r.status !== 200 || body.changed !== 'Standing') bad++;
    } catch (e) { bad++; }
  }));
  parentPort.postMessage({ times, bad });
});`;

export interface HttpWaiters {
  wake(n: number, flip: () => void): Promise<number[]>;
  close(): Promise<void>;
}

export const httpWaiters = async (service: Service, runId: string, limitMs: number): Promise<HttpWaiters> => {
  const server: Server = createServer(createApp(service, { bind: '127.0.0.1' }).callback());
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/runs/${encodeURIComponent(runId)}/wait?timeout=60`;
  const worker = new Worker(CLIENT, { eval: true });
  // Counts the waits the route has started: once all have, every waiter is subscribed.
  let started = 0;
  const original = service.waitForRun.bind(service);
  service.waitForRun = (...args) => { started++; return original(...args); };

  const wake = async (n: number, flip: () => void): Promise<number[]> => {
    started = 0;
    const done = new Promise<{ times: number[]; bad: number }>((resolve) => worker.once('message', resolve));
    worker.postMessage({ url, n });
    const until = Date.now() + limitMs;
    while (started < n) {
      if (Date.now() > until) throw new Error(`only ${started} of ${n} waits reached the server`);
      await sleep(5);
    }
    let committed = 0;
    const mark = service.core.journal.subscribe(() => { committed ||= performance.timeOrigin + performance.now(); });
    flip();
    mark();
    const r = await within(done, limitMs, `${n} HTTP waiters`);
    if (r.bad) throw new Error(`${r.bad} of ${n} HTTP waits did not answer Standing`);
    return r.times.map((t) => t - committed);
  };

  return {
    wake,
    close: async () => {
      service.waitForRun = original;
      await worker.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
