import test from 'ava';
import { sleep } from '../helpers/env.js';
import { startRun } from '../helpers/steer.js';
import { closeBrowser, openApp, PHONE } from './browser.js';

// The app's push-stream client (lib/web/events.ts) in Chromium: when the connection drops, it
// reconnects with Last-Event-ID and the page catches up on what happened meanwhile, without
// loading the board again. Besides a page's own stream, the shell keeps one: `?cards`, the
// supervisor cards in its needs-you count (its runs come from the same runs index as the Runs page).

test.after.always(closeBrowser);

test('a dropped stream reconnects with Last-Event-ID and the board catches up without a reload', async (t) => {
  const app = await openApp(t, { viewport: PHONE });
  const s = app.server;
  const gone = await startRun(s, { title: 'Will be archived', goal: 'x', workflow: 'linear', start: false });
  const calls: { path: string; lastId: string | undefined }[] = [];
  app.page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/') && u.search !== '?cards') calls.push({ path: u.pathname, lastId: r.headers()['last-event-id'] });
  });
  await app.goto('/');
  await app.page.locator(`[data-run="${gone}"]`).waitFor();
  const streams = () => calls.filter((c) => c.path === '/api/events');
  t.is(streams().length, 1);
  t.regex(streams()[0]!.lastId ?? '', /^runs:/, 'the first stream starts from the board\'s cursor');
  // The network drops every connection; meanwhile the runs change.
  s.server.closeAllConnections();
  await sleep(100); // this test's own pooled connection was cut too: let the client see it first
  t.is((await s.post(`/api/runs/${gone}/archive`, { state: 'Archived' })).status, 200);
  const added = await startRun(s, { title: 'Started while away', goal: 'y', workflow: 'linear', start: false });
  await app.page.locator(`[data-run="${added}"]`).waitFor({ timeout: 20_000 });
  await app.page.locator(`[data-run="${gone}"]`).waitFor({ state: 'detached' });
  t.true(streams().length >= 2);
  t.regex(streams()[1]!.lastId ?? '', /^runs:/, 'the reconnect resumes from the last event handled');
  t.is(calls.filter((c) => c.path === '/api/board').length, 1, 'no reload of the board');
  // Chromium logs the cut stream itself; nothing else may have gone wrong.
  t.deepEqual(app.errors.filter((e) => !e.includes('net::ERR_INCOMPLETE_CHUNKED_ENCODING')), []);
});

test('an idle app asks nothing more: no polling on the runs page or a run page, one stream each', async (t) => {
  const app = await openApp(t, { viewport: PHONE });
  const runId = await startRun(app.server, { title: 'Left alone', goal: 'x', workflow: 'linear', start: false });
  const calls: string[] = [];
  app.page.on('request', (r) => { const u = new URL(r.url()); if (u.pathname.startsWith('/api/')) calls.push(u.pathname + u.search); });
  const idleFor = async (ms: number): Promise<string[]> => {
    const before = calls.length;
    await sleep(ms);
    return calls.slice(before);
  };
  /** until a whole second passes with no new request: the page's first reads are done, however slow the machine */
  const settled = async (): Promise<void> => {
    for (let i = 0; i < 30 && (await idleFor(1_000)).length > 0; i++) { /* still reading */ }
  };
  await app.goto('/');
  await app.page.locator(`[data-run="${runId}"]`).waitFor();
  await settled();
  t.deepEqual(await idleFor(3_000), [], 'the runs page asks nothing while nothing happens');
  t.deepEqual(calls.filter((c) => c.startsWith('/api/events')).sort(), ['/api/events?cards', '/api/events?runs'], "the page's stream and the shell's");

  const opened = calls.length;
  await app.page.getByRole('link', { name: 'Left alone' }).click();
  await app.page.getByRole('heading', { level: 1, name: 'Left alone' }).waitFor();
  await settled();
  t.deepEqual(await idleFor(3_000), [], 'a run page asks nothing while the run stands still');
  t.is(calls.slice(opened).filter((c) => c.startsWith('/api/events')).length, 1, 'one stream for the run page');
  app.noErrors(t);
});
