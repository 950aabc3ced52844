import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../lib/cli/serve.js';
import { closeService } from '../lib/root/open.js';
import { buildWeb } from '../scripts/build-web.js';
import { findChromium, machineProbe } from '../spec/run/chromium.js';
import { benchTmp, median, row, within, type BenchResult, type Row } from './common.js';
import { benchService, createRuns } from './service-setup.js';

// The Runs page in Debian's Chromium (playwright-core), against the real server: a board of
// 10,000 runs against the same page with one run, both served side by side, rounds alternating.
//   first render: navigation start to the board's first row in the DOM (a MutationObserver
//     installed before the page's own scripts marks it, in the page's clock)
//   update after one event: the page archives its newest run through /api and times, in the page,
//     until that row leaves the DOM: the POST, the append, the push stream's frame, the re-render
//   first load: gzipped bytes of every file the browser fetches for `/` (html, css, js chunks),
//     against the 150 KB budget
//   a run page's bytes: every response the browser reads for /runs/<id> (the push streams aside)
//     at 10,000 runs against at 1 run; a page fetches what it shows, not the whole board (issue 32)

const BENCH = 'runs-page';
const RUNS = 10_000;
const ROUNDS = 5;
const BUDGET_KB = 150;

interface Side { readonly label: string; readonly server: RunningServer; readonly runIds: string[] }

const makeSide = async (label: string, tmp: string, count: number): Promise<Side> => {
  const home = join(tmp, `${label}-home`);
  const { service, projectId } = await benchService(home, join(tmp, label));
  const runIds = createRuns(service, projectId, count);
  await closeService(service);
  const server = await startServer({ home, port: 0, bind: '127.0.0.1' });
  return { label, server, runIds };
};

// Before any script of the page runs: note when the first board row appears.
const MARK_FIRST_ROW = () => {
  const w = window as unknown as { firstRowAt?: number };
  new MutationObserver((_, obs) => {
    if (document.querySelector('.board-row')) { w.firstRowAt = performance.now(); obs.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
};

const firstRender = async (browser: Browser, side: Side): Promise<{ ms: number; page: Page; close: () => Promise<void> }> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(MARK_FIRST_ROW);
  const page = await context.newPage();
  await page.goto(side.server.url + '/');
  await page.waitForFunction(() => (window as unknown as { firstRowAt?: number }).firstRowAt !== undefined, undefined, { timeout: 60_000 });
  const ms = await page.evaluate(() => (window as unknown as { firstRowAt: number }).firstRowAt);
  return { ms, page, close: () => context.close() };
};

/** Archives the newest run on the board from inside the page; ms until its row is gone. */
const updateAfterOneEvent = (page: Page): Promise<number> =>
  within(page.evaluate(async () => {
    const row = document.querySelector('.board-row')!;
    const id = row.getAttribute('data-run')!;
    const t0 = performance.now();
    const gone = new Promise<number>((resolve) => {
      const obs = new MutationObserver(() => {
        if (!document.querySelector(`[data-run="${id}"]`)) { obs.disconnect(); resolve(performance.now()); }
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
    const res = await fetch(`/api/runs/${id}/archive`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"state":"Archived"}' });
    if (!res.ok) throw new Error(`archive: ${res.status}`);
    return (await gone) - t0;
  }), 30_000, 'update after one event');

const firstLoadBytes = async (browser: Browser, side: Side): Promise<{ gz: number; files: number }> => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (r) => { if (!new URL(r.url()).pathname.startsWith('/api/')) bodies.push(r.body()); });
  await page.goto(side.server.url + '/');
  await page.locator('.board-row').first().waitFor({ timeout: 60_000 });
  const all = await Promise.all(bodies);
  await context.close();
  return { gz: all.reduce((n, b) => n + gzipSync(b).byteLength, 0), files: all.length };
};

/** bytes of every response the browser reads for one run's page, the push streams aside */
const runPageBytes = async (browser: Browser, side: Side): Promise<{ bytes: number; board: number }> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const bodies: Promise<number>[] = [];
  let board = 0;
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/api/events') return; // a stream: its body never ends
    if (path === '/api/board') board++;
    bodies.push(r.body().then((b) => b.byteLength, () => 0));
  });
  await page.goto(`${side.server.url}/runs/${encodeURIComponent(side.runIds[0]!)}`);
  await page.locator('.run-facts').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1500); // what the page reads after its first render
  const bytes = (await Promise.all(bodies)).reduce((n, b) => n + b, 0);
  await context.close();
  return { bytes, board };
};

export const run = async (): Promise<BenchResult> => {
  const t0 = Date.now();
  const tmp = benchTmp(BENCH);
  const notes: string[] = [];
  await buildWeb();
  const full = await makeSide('full', tmp, RUNS);
  const one = await makeSide('one', tmp, 1);
  const browser = await chromium.launch({
    executablePath: process.env['SVC_CHROMIUM'] ?? findChromium(machineProbe()) ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const boardBytes = (await (await fetch(`${full.server.url}/api/board`)).arrayBuffer()).byteLength;
    notes.push(`GET /api/board with ${RUNS.toLocaleString('en-US')} runs: ${(boardBytes / 1024).toFixed(0)} KiB`);
    const render: Record<string, number[]> = { full: [], one: [] };
    const update: Record<string, number[]> = { full: [], one: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const side of i % 2 === 0 ? [full, one] : [one, full]) {
        const r = await firstRender(browser, side);
        render[side.label]!.push(r.ms);
        await r.page.locator('.board-row').first().waitFor();
        update[side.label]!.push(await updateAfterOneEvent(r.page));
        await r.close();
        if (side === one) {
          // put the one run back so every round measures the same page
          await fetch(`${one.server.url}/api/runs/${one.runIds[0]}/archive`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"state":"Active"}' });
        }
      }
    }
    const load = await firstLoadBytes(browser, full);
    const pageFull = await runPageBytes(browser, full);
    const pageOne = await runPageBytes(browser, one);
    notes.push(`run page bytes, ${RUNS.toLocaleString('en-US')} runs: ${pageFull.bytes} (${pageFull.board} board reads); 1 run: ${pageOne.bytes}`);
    const rows: Row[] = [
      row({ bench: BENCH, measure: `Runs page first render, ${RUNS.toLocaleString('en-US')} runs (Chromium, median of ${ROUNDS})`, measured: median(render['full']!), baseline: median(render['one']!), unit: 'ms', baselineLabel: 'the same page with 1 run', target: { op: '<', value: 3 } }),
      row({ bench: BENCH, measure: `Runs page update after one event, ${RUNS.toLocaleString('en-US')} runs (archive → row gone)`, measured: median(update['full']!), baseline: median(update['one']!), unit: 'ms', baselineLabel: 'the same page with 1 run', target: { op: '<', value: 2 } }),
      row({ bench: BENCH, measure: `a run page's bytes, ${RUNS.toLocaleString('en-US')} runs (every response but the push streams)`, measured: pageFull.bytes / 1024, baseline: pageOne.bytes / 1024, unit: 'KB', baselineLabel: 'the same page with 1 run', target: { op: '<', value: 1.5 } }),
      row({ bench: BENCH, measure: `app first load of / (${load.files} files, gzipped)`, measured: load.gz / 1024, baseline: BUDGET_KB, unit: 'KB', baselineLabel: 'the 150 KB budget', target: { op: '<', value: 1 } }),
    ];
    notes.push(`first render ms, full: ${render['full']!.map((x) => x.toFixed(0)).join(' ')}; one: ${render['one']!.map((x) => x.toFixed(0)).join(' ')}`);
    notes.push(`update ms, full: ${update['full']!.map((x) => x.toFixed(0)).join(' ')}; one: ${update['one']!.map((x) => x.toFixed(0)).join(' ')}`);
    return { bench: BENCH, rows, notes, seconds: (Date.now() - t0) / 1000 };
  } finally {
    await browser.close();
    await full.server.close();
    await one.server.close();
  }
};
