import test from 'ava';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The Triggers page in real Chromium against a real server: a webhook rule created from the form
// (its secret shown once, then really delivered to), fired by hand, its events listed with their
// runs, switched off, edited and deleted; a bad schedule refused with the server's detail.

test.after.always(closeBrowser);

const NAME = 'CI failed <img src=x onerror=alert(1)>';

for (const viewport of VIEWPORTS) {
  test(`a webhook rule: created, delivered to, fired, events listed, switched off, edited, deleted (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/triggers');
    await page.getByRole('heading', { level: 1, name: 'Triggers' }).waitFor();
    await page.getByText('No rule yet.').waitFor();
    await app.axe(t, 'empty');

    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Rule name').fill(NAME);
    await form.getByRole('option', { name: 'linear' }).waitFor({ state: 'attached' });
    await form.getByLabel('Workflow').selectOption('linear');
    await form.getByLabel('Source').selectOption('Webhook');
    await form.getByLabel('Goal (template)').fill('Fix {{event.summary}}');
    await form.getByLabel('ticket').fill('{{event.url}}');
    await form.getByRole('button', { name: 'Create rule' }).click();

    const card = page.getByRole('region', { name: NAME });
    const secret = (await card.locator('[data-secret]').textContent())!;
    t.true(secret.length > 20);
    t.is(await page.locator('main img').count(), 0, 'names are text');
    await card.locator('[data-status="Listening"]').waitFor();
    const ruleId = (await card.getAttribute('data-rule'))!;
    const rule = (await server.get(`/api/triggers/${ruleId}`)).body;
    t.like(rule, { name: NAME, workflow: 'linear', goal: 'Fix {{event.summary}}', inputs: { ticket: '{{event.url}}' }, source: { _tag: 'Webhook' } });
    t.is(rule.secret, undefined, 'the secret is not kept readable');
    await app.axe(t, 'with the secret shown');

    // the secret the page showed really works
    const delivered = await server.post(`/api/triggers/${ruleId}/events`, { summary: 'build 7 failed' }, { 'svc-trigger-secret': secret });
    t.is(delivered.status, 200, JSON.stringify(delivered.body));

    await card.getByLabel('Event summary').fill('by hand');
    await card.getByRole('button', { name: 'Fire now' }).click();
    await card.getByRole('status').filter({ hasText: 'Fired: run started.' }).waitFor();
    const href = await card.getByRole('link', { name: 'Open the run' }).getAttribute('href');
    const runId = decodeURIComponent(href!.split('/').pop()!);
    t.is((await server.get(`/api/runs/${runId}`)).body.goal, 'Fix by hand');

    await card.getByRole('button', { name: 'Show events' }).click();
    const events = card.getByRole('list', { name: `Events of ${NAME}, newest first` });
    await events.locator('li').nth(1).waitFor();
    t.deepEqual(await events.locator('li .grow').allTextContents(), ['by hand', 'build 7 failed']);
    t.regex(await events.locator('li').first().textContent() ?? '', /Started/);

    await card.getByRole('button', { name: 'Switch off' }).click();
    await card.getByRole('status').filter({ hasText: 'Switched off.' }).waitFor();
    t.false((await server.get(`/api/triggers/${ruleId}`)).body.enabled);

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByRole('form', { name: `Edit ${NAME}` }).getByLabel('Rule name').fill('CI broke');
    await card.getByRole('button', { name: 'Save rule' }).click();
    const renamed = page.getByRole('region', { name: 'CI broke' });
    await renamed.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    t.is((await server.get(`/api/triggers/${ruleId}`)).body.name, 'CI broke');
    await app.axe(t, 'after the changes');

    await renamed.getByRole('button', { name: 'Delete' }).click();
    await renamed.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByText('No rule yet.').waitFor();
    t.deepEqual((await server.get('/api/triggers')).body, []);
    app.noErrors(t);
  });
}

test('a bad schedule is refused with the detail, and the form keeps what was typed', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page, server } = app;
  await app.goto('/triggers');
  const form = page.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Rule name').fill('Nightly');
  await form.getByLabel('Cron expression').fill('not a cron');
  await form.getByLabel('Time zone').fill('UTC');
  await form.getByLabel('Goal (template)').fill('Tidy up');
  await form.getByRole('button', { name: 'Create rule' }).click();
  t.regex(await form.getByRole('alert').textContent() ?? '', /cron|CronPattern/i);
  t.is(await form.getByLabel('Rule name').inputValue(), 'Nightly');
  t.deepEqual((await server.get('/api/triggers')).body, []);
  await form.getByLabel('Cron expression').fill('0 9 * * 1-5');
  await form.getByRole('button', { name: 'Create rule' }).click();
  await page.getByRole('region', { name: 'Nightly' }).locator('[data-status="Watching"]').waitFor();
  app.noErrors(t);
});
