import test from 'ava';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { setCodeText } from './code-text.js';

// The Workflows page in real Chromium against a real server: the list by origin, a workflow's text
// with prompts inlined and its diagnostics pinned to node, attribute and line, and a custom
// workflow written with validation as you type, saved, edited and deleted.

test.after.always(closeBrowser);

const BROKEN = `digraph mine {
  start [kind=start]
  w [kind=agent, persona=nobody, prompt="{{goal}}"]
  done [kind=exit]
  start -> w -> done
}`;

for (const viewport of VIEWPORTS) {
  test(`the list by origin, a shipped workflow read with prompts inlined, a home one's warning pinned to its line (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page } = app;
    await app.goto('/workflows');
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    const shipped = page.getByRole('list', { name: 'Shipped' });
    await shipped.waitFor();
    t.deepEqual(await shipped.locator('[data-workflow]').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-workflow'))), ['default', 'epic', 'ticket']);
    t.deepEqual(await page.getByRole('list', { name: 'Home' }).locator('[data-workflow]').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-workflow'))), ['linear']);
    t.is(await page.getByRole('heading', { name: 'Custom' }).count(), 0, 'no custom workflow yet');
    await shipped.locator('[data-workflow="default"] .badge', { hasText: 'default' }).waitFor();
    await app.axe(t, 'list');

    await shipped.getByRole('link', { name: 'ticket' }).click();
    await page.getByRole('heading', { level: 1, name: 'ticket' }).waitFor();
    const source = page.getByRole('region', { name: 'Source, prompts inlined' });
    await source.getByText('Read the ticket and turn it into a plan.', { exact: false }).first().waitFor();
    t.false((await source.textContent())!.includes('@prompts/'), 'prompt files are inlined');
    await page.getByText('Loads, no problems.').waitFor();
    t.is(await page.getByRole('button', { name: 'Customize' }).count(), 1);
    t.is(await page.getByRole('button', { name: 'Delete' }).count(), 0, 'only a custom workflow can be deleted');
    await app.axe(t, 'shipped workflow');

    await page.getByRole('link', { name: 'All workflows' }).click();
    await page.getByRole('list', { name: 'Home' }).getByRole('link', { name: 'linear' }).click();
    await page.getByRole('heading', { level: 1, name: 'linear' }).waitFor();
    const pinned = page.getByRole('region', { name: 'Source, prompts inlined' }).locator('li.pinned');
    await pinned.locator('.diag.warning[data-attribute="inputs"]').waitFor();
    t.regex(await pinned.locator('code').textContent() ?? '', /inputs="ticket"/, 'the warning sits under the line that declares the input');
    t.regex(await page.getByRole('list', { name: 'Problems' }).textContent() ?? '', /Warning at line 2 \(graph, attribute inputs\): input ticket is declared but no prompt uses it/);
    app.noErrors(t);
  });

  test(`a custom workflow: written with validation as you type, saved, edited with an error pinned to its node, deleted (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/workflows');
    await page.getByRole('button', { name: 'Write a new workflow' }).click();
    const editor = page.getByRole('form', { name: 'New workflow' });
    await editor.getByLabel('Name').fill('mine');
    await setCodeText(editor.getByLabel('Workflow text'), BROKEN);
    const status = editor.locator('#wf-check');
    await status.filter({ hasText: 'Does not load: 1 error, 0 warnings.' }).waitFor();
    const problem = editor.getByRole('list', { name: 'Problems in the text' }).locator('li[data-node="w"][data-attribute="persona"]');
    t.regex(await problem.textContent() ?? '', /^Error at line 3 \(node w, attribute persona\): .*nobody/);
    await app.axe(t, 'editor with a problem');
    // picking the problem takes the caret to its line
    await problem.getByRole('button').click();
    t.is(await page.evaluate(() => document.getSelection()?.toString()), '  w [kind=agent, persona=nobody, prompt="{{goal}}"]');
    t.true(await page.evaluate(() => document.activeElement?.classList.contains('cm-content')), 'the caret is in the editor');
    t.is((await server.get(`/api/workflows/mine?project=${server.projectId}`)).status, 404, 'checking saves nothing');
    await setCodeText(editor.getByLabel('Workflow text'), BROKEN.replace('persona=nobody, ', ''));
    await status.filter({ hasText: 'Loads, no problems.' }).waitFor();
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/workflows/mine');
    await page.getByRole('heading', { level: 1, name: 'mine' }).waitFor();
    await page.locator('.badge', { hasText: 'custom' }).waitFor();
    t.is((await server.get(`/api/workflows/mine?project=${server.projectId}`)).body.origin, 'custom');

    // saved even with an error, so work is not lost; the error is then pinned in the source view
    await page.getByRole('button', { name: 'Edit' }).click();
    await setCodeText(page.getByRole('form', { name: 'Edit mine' }).getByLabel('Workflow text'), BROKEN);
    await page.locator('#wf-check').filter({ hasText: 'Does not load: 1 error, 0 warnings.' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved. Does not load: 1 error, 0 warnings.' }).waitFor();
    const pinned = page.getByRole('region', { name: 'Source, prompts inlined' }).locator('li.pinned');
    await pinned.locator('.diag.error[data-node="w"][data-attribute="persona"]').waitFor();
    t.regex(await pinned.locator('code').textContent() ?? '', /persona=nobody/);
    t.false((await server.get(`/api/workflows/mine/validation?project=${server.projectId}`)).body.loads);
    await app.axe(t, 'saved with an error');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL((u) => u.pathname === '/workflows');
    await page.getByRole('list', { name: 'Shipped' }).waitFor();
    t.is(await page.locator('[data-workflow="mine"]').count(), 0);
    t.is((await server.get(`/api/workflows/mine?project=${server.projectId}`)).status, 404);
    app.noErrors(t);
  });
}

test('a refused save (not DOT) shows the detail and keeps the text', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page } = app;
  await app.goto('/workflows/linear');
  await page.getByRole('button', { name: 'Customize' }).click();
  const editor = page.getByRole('form', { name: 'Edit linear' });
  await setCodeText(editor.getByLabel('Workflow text'), 'this is not a graph');
  await editor.locator('#wf-check').filter({ hasText: 'Does not load' }).waitFor();
  await editor.getByRole('button', { name: 'Save' }).click();
  t.regex(await editor.getByRole('alert').textContent() ?? '', /not a DOT file/);
  t.is(await editor.getByLabel('Workflow text').textContent(), 'this is not a graph');
  t.is((await app.server.get(`/api/workflows/linear?project=${app.server.projectId}`)).body.origin, 'home');
  app.noErrors(t);
});
