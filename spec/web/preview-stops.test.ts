import test from 'ava';
import { GATE_ONLY, testServer } from '../helpers/server.js';
import { PREVIEW, previewRepo } from '../helpers/preview.js';
import { gateRun, settled } from '../helpers/preview-runs.js';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// What the app says when svc stops a preview itself (issue 30), in real Chromium at both sizes with
// axe: past the limit of previews at once, the new preview's panel names the one stopped to make
// room, and that run's panel says why it stopped; past the idle time, the panel says so.
// Screenshots (with SVC_SHOTS set, spec/helpers/shots.ts): preview-stops-*.png.

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test.serial(`the limit and the idle stop, in the preview panel's words (${viewport.name})`, async (t) => {
    t.timeout(300_000);
    const clock = new ManualClock(new Date('2031-03-01T10:00:00.000Z'));
    const server = await testServer({ workflows: { gate: GATE_ONLY }, repo: previewRepo(), clock });
    t.teardown(() => server.close());
    t.is((await server.send('PATCH', `/api/projects/${server.projectId}`, JSON.stringify({ preview: PREVIEW }))).status, 200);
    t.is((await server.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Previews', idleMinutes: 1, limit: 1 }))).status, 200);
    const [a, b] = [await gateRun(server), await gateRun(server)];
    t.is((await server.post(`/api/runs/${a}/preview`)).status, 200);
    t.is((await settled(server, a)).state, 'running');

    const app = await openApp(t, { viewport, server });
    const { page } = app;
    await app.goto(`/runs/${b}`);
    const panel = page.getByRole('region', { name: 'Preview' });
    await panel.getByRole('button', { name: 'Preview', exact: true }).click();
    await panel.getByText('Running', { exact: true }).waitFor({ timeout: 90_000 });
    await panel.getByText(new RegExp(`Stopped the preview of “preview me” \\(run ${a}\\), the oldest idle one, to stay within 1 at once`)).waitFor();
    await app.axe(t, 'a preview started past the limit');
    await shot(page, `preview-stops-limit-${viewport.width}.png`);

    await app.goto(`/runs/${a}`);
    await panel.getByText('Stopped', { exact: true }).waitFor();
    await panel.getByText(/to make room/).waitFor();
    await app.axe(t, 'the preview stopped to make room');

    await app.goto(`/runs/${b}`);
    await panel.getByText('Running', { exact: true }).waitFor();
    clock.set(new Date(clock.now().getTime() + 2 * 60_000));
    await panel.getByText('Stopped', { exact: true }).waitFor({ timeout: 60_000 });
    await panel.getByText(/idle time/).waitFor();
    await panel.getByRole('button', { name: 'Preview', exact: true }).waitFor();
    await app.axe(t, 'the preview stopped after its idle time');
    await shot(page, `preview-stops-idle-${viewport.width}.png`);
    app.noErrors(t);
  });
}
