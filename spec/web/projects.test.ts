import test from 'ava';
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { gitRepo } from '../helpers/env.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The Projects page in real Chromium against a real server: create a project from git folders,
// rename it, choose its default workflow and primary folder, add and remove folders; refusals are
// shown with the server's detail.

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test(`create a project, then rename it, choose its default workflow and primary folder, add and remove folders (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/projects');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('region', { name: 'demo' }).waitFor();
    const a = gitRepo();
    const b = gitRepo();
    await page.getByLabel('Project name').fill('Widgets <img src=x onerror=alert(1)>');
    await page.getByLabel('Folder paths').fill(`${a}\n${b}`);
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('status').filter({ hasText: 'Project Widgets <img src=x onerror=alert(1)> created.' }).waitFor();
    t.is(await page.locator('main img').count(), 0, 'names are text');
    const card = page.getByRole('region', { name: 'Widgets <img src=x onerror=alert(1)>' });
    const id = (await card.getAttribute('data-project'))!;
    const [na, nb] = [basename(realpathSync(a)), basename(realpathSync(b))];
    t.deepEqual(await card.locator('[data-folder]').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-folder'))), [na, nb]);
    await app.axe(t, 'with a new project');

    await card.getByLabel('Name', { exact: true }).fill('Widgets');
    await card.getByRole('button', { name: 'Rename' }).click();
    const renamed = page.getByRole('region', { name: 'Widgets', exact: true });
    await renamed.getByRole('status').filter({ hasText: 'Renamed.' }).waitFor();

    await renamed.getByRole('option', { name: 'linear' }).waitFor({ state: 'attached' });
    await renamed.getByLabel('Default workflow').selectOption('linear');
    await renamed.getByRole('button', { name: 'Set default' }).click();
    await renamed.getByRole('status').filter({ hasText: 'Default workflow chosen.' }).waitFor();

    t.is(await renamed.getByLabel('Auto-merge pull requests').inputValue(), 'off', 'auto-merge is off by default');
    await renamed.getByLabel('Auto-merge pull requests').selectOption('squash');
    await renamed.getByRole('button', { name: 'Set auto-merge' }).click();
    await renamed.getByRole('status').filter({ hasText: 'Auto-merge by squash.' }).waitFor();

    await renamed.getByRole('button', { name: `Make primary: ${nb}` }).click();
    await renamed.locator(`[data-folder="${nb}"] .badge`, { hasText: 'primary' }).waitFor();

    const c = gitRepo();
    await renamed.getByLabel('Folder path').fill(c);
    await renamed.getByLabel('Folder name (optional)').fill('third');
    await renamed.getByRole('button', { name: 'Add folder' }).click();
    await renamed.locator('[data-folder="third"]').waitFor();
    await renamed.getByRole('button', { name: `Remove folder ${na}` }).click();
    await renamed.locator(`[data-folder="${na}"]`).waitFor({ state: 'detached' });

    const p = (await server.get(`/api/projects/${id}`)).body;
    t.like(p, { name: 'Widgets', defaultWorkflow: 'linear', primaryFolder: nb, autoMerge: { method: 'squash' } });
    t.deepEqual(p.folders.map((f: { name: string }) => f.name), [nb, 'third']);
    await app.axe(t, 'after the changes');
    app.noErrors(t);
  });
}

test('refusals show the server detail: a relative folder, a taken name, the last folder', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page, server } = app;
  await app.goto('/projects');
  await page.getByLabel('Project name').fill('Relative');
  await page.getByLabel('Folder paths').fill('code/repo');
  await page.getByRole('button', { name: 'Create project' }).click();
  t.regex(await page.getByRole('alert').textContent() ?? '', /not an absolute path/);
  t.is(await page.getByLabel('Project name').inputValue(), 'Relative', 'the form keeps what was typed');
  t.is((await server.get('/api/projects')).body.length, 1);

  const demo = page.getByRole('region', { name: 'demo' });
  await server.post('/api/projects', { name: 'taken', folders: [{ path: gitRepo() }] });
  await demo.getByLabel('Name', { exact: true }).fill('taken');
  await demo.getByRole('button', { name: 'Rename' }).click();
  t.regex(await demo.getByRole('alert').textContent() ?? '', /exists already/);
  t.true(await demo.getByRole('button', { name: /^Remove folder/ }).isDisabled(), 'a project keeps one folder');
  t.is((await server.get(`/api/projects/${server.projectId}`)).body.name, 'demo');
  app.noErrors(t);
});
