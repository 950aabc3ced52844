import { Worker } from 'node:worker_threads';

// HTTP load from a worker thread (the servers keep the main thread to themselves): a fixed number
// of GETs with a bounded number in flight, each body read to the end, stopped early at maxMs.

export interface LoadResult { readonly done: number; readonly failed: number; readonly bytes: number; readonly ms: number; readonly p50: number; readonly p99: number }
export interface LoadJob {
  readonly url: string; readonly count: number; readonly concurrency: number; readonly maxMs: number;
  /** request headers (e.g. Accept-Encoding, If-None-Match); fetch unzips a gzip body itself */
  readonly headers?: Record<string, string>;
  /** the status every answer must have (default 200); any other counts as failed */
  readonly status?: number;
}

const DRIVER = `
const { parentPort } = require('node:worker_threads');
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p / 100 * s.length) - 1))] : NaN; };
parentPort.on('message', async ({ id, url, count, concurrency, maxMs, headers = {}, status = 200 }) => {
  let issued = 0, done = 0, failed = 0, bytes = 0;
  const lat = [];
  const t0 = performance.now();
  const lane = async () => {
    while (issued < count && performance.now() - t0 < maxMs) {
      issued++;
      const t = performance.now();
      try {
        const r = await fetch(url, { headers });
        const b = await r.arrayBuffer();
        bytes += b.byteLength;
        if (r.status !== status) failed++;
      } catch { failed++; }
      lat.push(performance.now() - t);
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  parentPort.postMessage({ id, done, failed, bytes, ms: performance.now() - t0, p50: pct(lat, 50), p99: pct(lat, 99) });
});`;

export class LoadDriver {
  private readonly worker = new Worker(DRIVER, { eval: true });
  private next = 0;

  run(job: LoadJob): Promise<LoadResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const onMessage = (m: LoadResult & { id: number }) => {
        if (m.id !== id) return;
        this.worker.off('message', onMessage);
        this.worker.off('error', reject);
        resolve(m);
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
      this.worker.postMessage({ id, ...job });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
