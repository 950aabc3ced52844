import test from 'ava';
import { GATE_ONLY, testServer } from '../helpers/server.js';
import { PREVIEW, previewRepo } from '../helpers/preview.js';
import { anyAlive, previewPids, gateRun } from '../helpers/preview-runs.js';
import { eventually } from '../helpers/env.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The run page's Preview (issue 30) in real Chromium at both sizes, with axe: Preview starts the
// project's command, the state reads Running, "Open preview" opens the page through svc in a new
// tab, Stop ends the server and the state says why; the preview's log lines are on the page.
// Screenshots: /tmp/shots/preview-*.png.

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test.serial(`Preview on the run page: start, open in a new tab, stop (${viewport.name})`, async (t) => {
    t.timeout(240_000);
    const server = await testServer({ workflows: { gate: GATE_ONLY }, repo: previewRepo() });
    t.teardown(() => server.close());
    t.is((await server.send('PATCH', `/api/projects/${server.projectId}`, JSON.stringify({ preview: PREVIEW }))).status, 200);
    const app = await openApp(t, { viewport, server });
    const { page } = app;
    const runId = await gateRun(server);
    await app.goto(`/runs/${runId}`);
    const panel = page.getByRole('region', { name: 'Preview' });
    await panel.getByText('Not running').waitFor();
    await app.axe(t, 'preview off');
    await panel.getByRole('button', { name: 'Preview', exact: true }).click();
    await panel.getByText('Running', { exact: true }).waitFor({ timeout: 60_000 });
    const open = panel.getByRole('link', { name: 'Open preview' });
    t.is(await open.getAttribute('href'), `/preview/${runId}/`);
    t.is(await open.getAttribute('target'), '_blank');
    await panel.locator('summary', { hasText: 'Preview log' }).click();
    await panel.getByText(/preview │ fixture app listening on \d+/).waitFor();
    await app.axe(t, 'preview running');
    await shot(page, `/tmp/shots/preview-running-${viewport.width}.png`, { fullPage: false });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    await tab.getByRole('heading', { name: /^Page of / }).waitFor();
    t.is(new URL(tab.url()).pathname, `/preview/${runId}/`);
    t.is(await tab.locator('#base').textContent(), `/preview/${runId}/`);
    await shot(tab, `/tmp/shots/preview-tab-${viewport.width}.png`);
    await tab.close();
    const pid = await previewPids(server, runId);
    await panel.getByRole('button', { name: 'Stop preview' }).click();
    await panel.getByText('Stopped', { exact: true }).waitFor();
    await panel.getByText(/Stopped by request/).waitFor();
    await eventually(() => anyAlive(pid), (x) => !x);
    await panel.getByRole('button', { name: 'Preview', exact: true }).waitFor();
    t.is(await panel.getByRole('link', { name: 'Open preview' }).count(), 0);
    await app.axe(t, 'preview stopped');
    await shot(page, `/tmp/shots/preview-stopped-${viewport.width}.png`, { fullPage: false });
    app.noErrors(t);
  });
}

test.serial('no Preview panel for a project without a preview command', async (t) => {
  t.timeout(120_000);
  const server = await testServer({ workflows: { gate: GATE_ONLY } });
  t.teardown(() => server.close());
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, server });
  const runId = await gateRun(server);
  await app.goto(`/runs/${runId}`);
  await app.page.getByRole('region', { name: 'Run actions' }).waitFor();
  await app.page.waitForTimeout(500);
  t.is(await app.page.getByRole('region', { name: 'Preview' }).count(), 0);
});

for (const viewport of VIEWPORTS) {
  test.serial(`the board card links a running preview; Compare shows both runs' previews side by side (${viewport.name})`, async (t) => {
    t.timeout(240_000);
    const server = await testServer({ workflows: { gate: GATE_ONLY }, repo: previewRepo() });
    t.teardown(() => server.close());
    t.is((await server.send('PATCH', `/api/projects/${server.projectId}`, JSON.stringify({ preview: PREVIEW }))).status, 200);
    const [a, b] = [await gateRun(server), await gateRun(server)];
    t.is((await server.post(`/api/runs/${a}/preview`)).status, 200);
    await eventually(() => server.get(`/api/runs/${a}/preview`), (r) => r.body.state === 'running', 60_000);
    const app = await openApp(t, { viewport, server });
    const { page } = app;
    await app.goto('/');
    const cardA = page.locator(`li.board-row[data-run="${a}"]`);
    const link = cardA.getByRole('link', { name: /^Open the preview of / });
    await link.waitFor();
    t.is(await link.getAttribute('href'), `/preview/${a}/`);
    t.is(await link.getAttribute('target'), '_blank');
    t.is(await page.locator(`li.board-row[data-run="${b}"]`).getByRole('link', { name: /^Open the preview of / }).count(), 0, 'no link without a preview');
    await app.axe(t, 'board with a preview link');
    await shot(page, `/tmp/shots/preview-board-${viewport.width}.png`, { fullPage: false });

    await app.goto(`/compare?a=${a}&b=${b}`);
    const previews = page.getByRole('region', { name: 'Previews' });
    const frameA = previews.getByTitle('Preview of run A');
    await frameA.waitFor({ timeout: 30_000 });
    t.is(await frameA.getAttribute('src'), `/preview/${a}/`);
    await page.frameLocator('iframe[title="Preview of run A"]').getByRole('heading', { name: /^Page of / }).waitFor();
    await previews.getByRole('button', { name: 'Start preview of B' }).click();
    await page.frameLocator('iframe[title="Preview of run B"]').getByRole('heading', { name: /^Page of / }).waitFor({ timeout: 60_000 });
    const [textA, textB] = await Promise.all(['A', 'B'].map((n) => page.frameLocator(`iframe[title="Preview of run ${n}"]`).locator('h1').textContent()));
    t.not(textA, textB, 'two different pages: each run\'s own worktree');
    const [boxA, boxB] = await Promise.all([frameA.boundingBox(), previews.getByTitle('Preview of run B').boundingBox()]);
    if (viewport.width >= 1000) t.true(boxA!.y === boxB!.y && boxA!.x < boxB!.x, 'side by side on a wide screen');
    else t.true(boxB!.y > boxA!.y, 'one above the other on a phone');
    t.true(boxA!.x >= 0 && boxA!.x + boxA!.width <= viewport.width, 'the frame fits the screen');
    await previews.getByRole('link', { name: 'Open B in a new tab' }).waitFor();
    await app.axe(t, 'compare with two previews');
    await previews.scrollIntoViewIfNeeded();
    await shot(page, `/tmp/shots/preview-compare-${viewport.width}.png`, { fullPage: false });
    app.noErrors(t);
  });
}
