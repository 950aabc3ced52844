import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The Personas page in real Chromium against a real server: a custom persona created from the
// form, listed, read, edited, refused for a bad name and a bad model (the server's detail shown,
// nothing stored), and deleted after a confirmation; the server's state checked over HTTP after
// each step. A project's own persona shows only when that project is picked; a shipped persona
// customized and then deleted comes back.

test.after.always(closeBrowser);

/** waits until the element with this id has the focus (it moves once the page has rendered) */
const focused = (page: import('playwright-core').Page, id: string) => page.waitForFunction((i) => document.activeElement?.id === i, id, { timeout: 5000 }).then(() => id, () => page.evaluate(() => document.activeElement?.id));
const fits = (page: import('playwright-core').Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

const EVIL = 'Tidies up <img src=x onerror=alert(1)>';
const PROMPT = 'You tidy up code.\nKeep <script>alert(1)</script> as text.';

for (const viewport of VIEWPORTS) {
  test(`a custom persona: created, listed, read, edited, refused, deleted (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/personas');
    await page.getByRole('heading', { level: 1, name: 'Personas' }).waitFor();
    const shipped = page.getByRole('list', { name: 'Shipped' });
    await shipped.locator('[data-persona="planner"]').waitFor();
    t.deepEqual(await shipped.locator('li').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-persona'))), ['implementer', 'planner', 'reviewer']);
    t.regex(await shipped.locator('[data-persona="planner"]').textContent() ?? '', /tools read-only/);
    await app.axe(t, 'the list');
    t.true(await fits(page), `the list fits ${viewport.name}`);

    // a bad name: the server's detail, the form keeps what was typed, nothing stored
    const form = page.getByRole('form', { name: 'New persona' });
    await form.getByLabel('Name').fill('Tidy Up');
    await form.getByLabel('Description (optional)').fill(EVIL);
    await form.getByLabel('Harness').selectOption('codex');
    await form.getByLabel('Tools').selectOption('read-only');
    await form.getByLabel('Model (optional)').fill('gpt-5');
    await form.getByLabel('Prompt').fill(PROMPT);
    await form.getByRole('button', { name: 'Create persona' }).click();
    t.regex(await form.getByRole('alert').textContent() ?? '', /persona name "Tidy Up" must be/);
    t.is(await form.getByLabel('Prompt').inputValue(), PROMPT);
    t.is((await server.get('/api/personas/Tidy%20Up')).status, 400);
    t.false((await server.get('/api/personas')).body.personas.some((p: { origin: string }) => p.origin === 'custom'));
    await app.axe(t, 'with a refusal');

    await form.getByLabel('Name').fill('tidy-up');
    await form.getByRole('button', { name: 'Create persona' }).click();
    await form.getByRole('status').filter({ hasText: 'Persona tidy-up saved.' }).waitFor();
    t.is(await form.getByRole('alert').count(), 0);
    t.is(await form.getByLabel('Name').inputValue(), '', 'the form is ready for another');
    const row = page.getByRole('list', { name: 'Custom' }).locator('[data-persona="tidy-up"]');
    await row.waitFor();
    t.regex(await row.textContent() ?? '', /harness codex · model gpt-5 · tools read-only/);
    t.is(await row.locator('.about').textContent(), EVIL);
    t.is(await page.locator('main img').count(), 0, 'a description is text');
    t.like((await server.get('/api/personas/tidy-up')).body, { origin: 'custom', description: EVIL, harness: 'codex', model: 'gpt-5', tools: 'read-only', prompt: PROMPT.trim(), loads: true });

    // read it
    await row.getByRole('link', { name: 'tidy-up' }).click();
    await page.getByRole('heading', { level: 1, name: 'tidy-up' }).waitFor();
    t.is(new URL(page.url()).pathname, '/personas/tidy-up');
    t.is(await page.locator('[data-prompt]').textContent(), PROMPT);
    t.is(await page.locator('main script').count(), 0);
    t.regex(await page.getByRole('region', { name: 'Persona file' }).textContent() ?? '', /harness: codex/);
    t.is(await page.getByRole('link', { name: 'Personas', exact: true }).getAttribute('aria-current'), 'page');
    await app.axe(t, 'one persona');
    t.true(await fits(page), `one persona fits ${viewport.name}`);

    // edit it: a bad model is refused with the detail and changes nothing
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('form', { name: 'Edit tidy-up' });
    t.is(await focused(page, 'pe-description'), 'pe-description', 'the keyboard is in the form');
    t.is(await edit.getByLabel('Model (optional)').inputValue(), 'gpt-5');
    t.is(await edit.getByLabel('Harness').inputValue(), 'codex');
    await edit.getByLabel('Model (optional)').fill('two words');
    await edit.getByRole('button', { name: 'Save persona' }).click();
    t.regex(await edit.getByRole('alert').textContent() ?? '', /model "two words" must be 1-200 characters without spaces/);
    t.is((await server.get('/api/personas/tidy-up')).body.model, 'gpt-5');
    await app.axe(t, 'editing, refused');
    t.true(await fits(page), `the edit form fits ${viewport.name}`);

    await edit.getByLabel('Model (optional)').fill('o3');
    await edit.getByLabel('Harness').selectOption('claude');
    await edit.getByLabel('Tools').selectOption('');
    await edit.getByLabel('Prompt').fill('You tidy up, gently.');
    await edit.getByRole('button', { name: 'Save persona' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    t.is(await page.locator('[data-prompt]').textContent(), 'You tidy up, gently.');
    t.regex(await page.getByRole('list', { name: 'Settings' }).textContent() ?? '', /Harness claude.*Model o3.*Tools not set/);
    t.like((await server.get('/api/personas/tidy-up')).body, { harness: 'claude', model: 'o3', tools: null, description: EVIL, prompt: 'You tidy up, gently.' });

    // delete it, after a confirmation
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('group', { name: 'Confirm deletion' });
    t.is(await focused(page, 'persona-keep'), 'persona-keep', 'the keyboard is on the safe answer');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    t.is(await focused(page, 'persona-delete'), 'persona-delete', 'and back on Delete');
    t.is((await server.get('/api/personas/tidy-up')).status, 200, 'Keep it keeps it');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('heading', { level: 1, name: 'Personas' }).waitFor();
    await shipped.locator('[data-persona="planner"]').waitFor();
    t.is(await page.getByRole('list', { name: 'Custom' }).count(), 0);
    t.is((await server.get('/api/personas/tidy-up')).status, 404);
    await app.axe(t, 'after deleting');
    app.noErrors(t);
  });
}

test("a project's own persona shows when that project is picked; a customized shipped one comes back when deleted", async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page, server } = app;
  mkdirSync(join(server.repo, '.svc', 'personas'), { recursive: true });
  writeFileSync(join(server.repo, '.svc', 'personas', 'house-style.md'), '---\ndescription: Our house style\n---\nWrite like us.\n');
  await app.goto('/personas');
  await page.getByRole('list', { name: 'Shipped' }).waitFor();
  t.is(await page.locator('[data-persona="house-style"]').count(), 0);
  await page.getByLabel('Project').selectOption('demo');
  await page.getByRole('list', { name: 'Project' }).locator('[data-persona="house-style"]').waitFor();
  t.is(new URL(page.url()).searchParams.get('project'), server.projectId);

  await page.getByRole('link', { name: 'planner' }).click();
  await page.getByRole('heading', { level: 1, name: 'planner' }).waitFor();
  t.is(new URL(page.url()).searchParams.get('project'), server.projectId, 'the project goes along');
  await page.getByRole('button', { name: 'Customize' }).click();
  const edit = page.getByRole('form', { name: 'Edit planner' });
  t.is(await edit.getByLabel('Tools').inputValue(), 'read-only');
  await edit.getByLabel('Prompt').fill('Plan, in our words.');
  await edit.getByRole('button', { name: 'Save persona' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved as a custom persona' }).waitFor();
  t.like((await server.get('/api/personas/planner')).body, { origin: 'custom', tools: 'read-only', prompt: 'Plan, in our words.' });

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Delete for good' }).click();
  await page.getByRole('status').filter({ hasText: 'This is the shipped persona planner' }).waitFor();
  t.is(await page.locator('main .badge').first().textContent(), 'shipped');
  t.is((await server.get('/api/personas/planner')).body.origin, 'shipped');
  await app.axe(t);
  app.noErrors(t);
});
