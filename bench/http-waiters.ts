import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { createApp } from '../lib/http/app.js';
import type { Service } from '../lib/root/service.js';
import { sleep, within } from './common.js';

// The same wake over HTTP: GET /api/runs/:id/wait?timeout=60 held open by a client in a child
// process (node:http, a keep-alive agent, one socket each), the real Koa app on a loopback port.
// The server is the app without the engine (startServer would start it, and the engine would take
// over the active run). The client is a process of its own so that this process's CPU time during
// a wake is the server's alone: a figure the machine's load distorts far less than latency.

const CLIENT = `
const http = require('node:http');
const clock = () => performance.timeOrigin + performance.now();
// every socket kept for the next poll, as 1,000 long-polling clients keep theirs (the agent's
// default keeps 256 and closes the rest, which would time socket teardown, not the wake)
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
const get = (url) => new Promise((resolve, reject) => {
  http.get(url, { agent }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    res.on('error', reject);
  }).on('error', reject);
});
process.on('message', async ({ url, n }) => {
  const times = [];
  let bad = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    try {
      const r = await get(url);
      const body = JSON.parse(r.body);
      times.push(clock());
      if (r.status !== 200 || body.changed !== 'Standing') bad++;
    } catch (e) { bad++; }
  }));
  process.send({ times, bad });
});`;

export interface HttpWake {
  /** ms from the start of the journal's notification to each client's body read */
  readonly lat: number[];
  /** CPU time (user + system) this process spent from just before the change to the last answer read */
  readonly cpuMs: number;
}

export interface HttpWaiters {
  wake(n: number, flip: () => void): Promise<HttpWake>;
  close(): Promise<void>;
}

export const httpWaiters = async (service: Service, runId: string, limitMs: number): Promise<HttpWaiters> => {
  const server: Server = createServer(createApp(service, { bind: '127.0.0.1' }).callback());
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/runs/${encodeURIComponent(runId)}/wait?timeout=60`;
  const client = spawn(process.execPath, ['-e', CLIENT], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Counts the waits the route has started: once all have, every waiter is subscribed.
  let started = 0;
  const original = service.waitForRun.bind(service);
  service.waitForRun = (...args) => { started++; return original(...args); };

  const wake = async (n: number, flip: () => void): Promise<HttpWake> => {
    started = 0;
    const done = new Promise<{ times: number[]; bad: number }>((resolve) => client.once('message', resolve as (m: unknown) => void));
    client.send({ url, n });
    const until = Date.now() + limitMs;
    while (started < n) {
      if (Date.now() > until) throw new Error(`only ${started} of ${n} waits reached the server`);
      await sleep(5);
    }
    let committed = 0;
    const mark = service.core.journal.subscribe(() => { committed ||= performance.timeOrigin + performance.now(); });
    const cpu = process.cpuUsage();
    flip();
    mark();
    const r = await within(done, limitMs, `${n} HTTP waiters`);
    const used = process.cpuUsage(cpu);
    if (r.bad) throw new Error(`${r.bad} of ${n} HTTP waits did not answer Standing`);
    return { lat: r.times.map((t) => t - committed), cpuMs: (used.user + used.system) / 1000 };
  };

  return {
    wake,
    close: async () => {
      service.waitForRun = original;
      client.kill();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/**
 * The floor: a bare `node:http` server holding the same number of requests from the same client,
 * answering each with the same bytes at once. What 1,000 answers cost in Node and the kernel on
 * this machine, whatever the service does.
 */
export const bareWaiters = async (body: Buffer, limitMs: number): Promise<HttpWaiters> => {
  const held: import('node:http').ServerResponse[] = [];
  const server: Server = createServer((_req, res) => { held.push(res); });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wait`;
  const client = spawn(process.execPath, ['-e', CLIENT], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const wake = async (n: number): Promise<HttpWake> => {
    held.length = 0;
    const done = new Promise<{ times: number[]; bad: number }>((resolve) => client.once('message', resolve as (m: unknown) => void));
    client.send({ url, n });
    const until = Date.now() + limitMs;
    while (held.length < n) {
      if (Date.now() > until) throw new Error(`only ${held.length} of ${n} waits reached the bare server`);
      await sleep(5);
    }
    const start = performance.timeOrigin + performance.now();
    const cpu = process.cpuUsage();
    for (const res of held) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }
    const r = await within(done, limitMs, `${n} bare HTTP waiters`);
    const used = process.cpuUsage(cpu);
    if (r.bad) throw new Error(`${r.bad} of ${n} bare waits did not read the answer`);
    return { lat: r.times.map((t) => t - start), cpuMs: (used.user + used.system) / 1000 };
  };
  return {
    wake: (n) => wake(n),
    close: async () => {
      client.kill();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
