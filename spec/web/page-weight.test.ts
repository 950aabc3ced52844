// Issue 32, page weight: every page downloaded the whole board (104–109 KB for 215 runs, run pages
// included) to count what needs the person. A run page reads no board; the shell reads only the
// runs that need the person (`/api/board?needs=true`); the Runs page reads the board it shows.
// The bytes at 10,000 runs against 1 are in bench/runs-page.ts.
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { GATE_ONLY } from '../helpers/server.js';
import { detail, startRun } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp } from './browser.js';

test.after.always(closeBrowser);

test('a run page fetches what it shows, not the whole board', async (t) => {
  t.timeout(120_000);
  const app = await openApp(t, { viewport: DESKTOP, workflows: { gate: GATE_ONLY } });
  const { page, server } = app;
  for (let i = 0; i < 5; i++) await startRun(server, { goal: `other ${i}`, workflow: 'linear', start: false });
  const gated = await startRun(server, { goal: 'Needs you', title: 'At the gate', workflow: 'gate' });
  await eventually(() => detail(server, gated), (d) => d.phase === 'AtGate', 60_000);
  const boards: string[] = [];
  page.on('request', (r) => { const u = new URL(r.url()); if (u.pathname === '/api/board') boards.push(u.search); });

  await app.goto(`/runs/${gated}`);
  await page.locator('.run-facts').waitFor();
  // the shell still counts what needs the person, from those rows only
  await page.waitForFunction(() => document.title.startsWith('(1) '));
  t.deepEqual(boards, ['?archived=false&needs=true']);

  boards.length = 0;
  await app.goto('/');
  await page.locator('.board-row').first().waitFor();
  t.true(boards.includes('?archived=false'), boards.join(' '));
  app.noErrors(t);
});
