import '../helpers/env.js';
import test from 'ava';
import { join } from 'node:path';
import { tempDir } from '../helpers/env.js';
import { startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The New run form and the run page in real Chromium on a machine where bubblewrap cannot start
// (SVC_BWRAP names a binary that is not there): they say that runs are not sandboxed, and why.

test.after.always(closeBrowser);
process.env['SVC_BWRAP'] = join(tempDir('svc-no-bwrap-'), 'bwrap');

test('without bubblewrap: the New run form says required is refused and preferred is unsandboxed; the run page marks the run', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page, server: s } = app;
  const patch = (sandbox: string) => s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ sandbox }));
  t.is((await patch('required')).status, 200);
  await app.goto('/new?workflow=linear');
  const note = page.locator('#nr-sandbox');
  await note.waitFor();
  t.is(await note.getAttribute('data-sandbox'), 'refused');
  t.true((await note.textContent())!.includes('requires svc\'s sandbox'));
  t.true((await note.textContent())!.includes('not found'), 'with the probe\'s reason');

  t.is((await patch('preferred')).status, 200);
  await app.goto('/new?workflow=linear');
  await page.locator('#nr-sandbox[data-sandbox="off"]').waitFor();
  t.true((await page.locator('#nr-sandbox').textContent())!.includes('bubblewrap is not installed'));

  const runId = await startRun(s, { goal: 'x', workflow: 'linear' });
  await untilStanding(s, runId, 'Succeeded');
  await app.goto(`/runs/${runId}`);
  const mark = page.locator('.run-facts [data-sandbox="off"]');
  await mark.waitFor();
  t.true((await mark.textContent())!.startsWith('unsandboxed: bubblewrap is not installed'));
  t.deepEqual(app.errors, []);
});
