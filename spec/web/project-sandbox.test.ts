import test from 'ava';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The project's sandbox setting and network allowlist on the Projects page, in real Chromium
// against a real server: each form is one PATCH, what the server holds afterwards is what was
// chosen, and a host pattern the server refuses is shown with its detail.

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test(`a project's sandbox and allowlist are set from its card; a bad host is refused with the server's detail (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/projects');
    const card = page.getByRole('region', { name: 'demo' });
    await card.waitFor();
    t.is(await card.getByLabel('Sandbox', { exact: true }).inputValue(), 'preferred', 'preferred by default');
    await app.axe(t, 'the card with its sandbox settings');

    await card.getByLabel('Sandbox', { exact: true }).selectOption('required');
    await card.getByRole('button', { name: 'Set sandbox' }).click();
    await card.getByRole('status').filter({ hasText: 'Sandbox: required.' }).waitFor();

    await card.getByLabel('Hosts sandboxed steps may reach').fill('registry.npmjs.org\n  *.pypi.org  \n\n');
    await card.getByLabel('More hosts for full-tools steps').fill('*');
    await card.getByRole('button', { name: 'Save allowlist' }).click();
    await card.getByRole('status').filter({ hasText: 'Allowlist saved.' }).waitFor();
    t.like((await server.get(`/api/projects/${server.projectId}`)).body, { sandbox: 'required', egressAllow: ['registry.npmjs.org', '*.pypi.org'], egressAllowFull: ['*'] });

    await card.getByLabel('Hosts sandboxed steps may reach').fill('*');
    await card.getByRole('button', { name: 'Save allowlist' }).click();
    t.regex(await card.getByRole('alert').textContent() ?? '', /not a host pattern for the egress allowlist/);
    t.deepEqual((await server.get(`/api/projects/${server.projectId}`)).body.egressAllow, ['registry.npmjs.org', '*.pypi.org'], 'the refused list changed nothing');
    await app.axe(t, 'with a refusal shown');

    await page.reload();
    const again = page.getByRole('region', { name: 'demo' });
    await again.waitFor();
    t.is(await again.getByLabel('Sandbox', { exact: true }).inputValue(), 'required');
    t.is(await again.getByLabel('Hosts sandboxed steps may reach').inputValue(), 'registry.npmjs.org\n*.pypi.org');
    app.noErrors(t);
  });
}
