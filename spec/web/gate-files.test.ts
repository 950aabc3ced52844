// Issue 32: the gate panel asked for an approval without showing what changed. It lists the files
// the run changed, each a link to its diff in the Worktree tab. Real Chromium, a run on the
// scripted agent that writes a file and stops at a gate.
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { GATED } from '../helpers/server.js';
import { detail, startRun } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test.serial(`the gate panel links to the changed files (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    const app = await openApp(t, { viewport, workflows: { gated: GATED } });
    const { page, server } = app;
    const runId = await startRun(server, { goal: 'Write it [write:gate.txt=done]', title: 'Gated work', workflow: 'gated' });
    await eventually(() => detail(server, runId), (d) => d.phase === 'AtGate', 60_000);
    await app.goto(`/runs/${runId}`);
    const panel = page.locator('section.gate');
    const link = panel.getByRole('link', { name: 'gate.txt' });
    await link.waitFor({ timeout: 30_000 });
    t.regex(await panel.innerText(), /files changed/);
    await app.axe(t, 'the gate with its files');
    await shot(page, `/tmp/gate-files-${viewport.width}.png`);
    await link.click();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'worktree' && u.searchParams.get('file') === 'gate.txt');
    app.noErrors(t);
  });
}
